import AIBudsAISDK
import AIBudsAudio
import AIBudsStabilization
import AIBudsSyntheticVideo
import Foundation

/// What the demo's glasses hold, made on this machine with no download: rendered H.264 videos with
/// their six-axis logs (a head-worn camera that pans and shakes, known motion), JPEG photos of the
/// same scene, and voice notes spoken by the offline provider; plus the question the wearer asks
/// into the glasses' microphone.
struct DemoContent {
    /// The glasses' media folder (the emulator serves its files).
    let media: URL
    /// The watch's media folder: the same voice notes, recorded on the wearer's watch.
    let watchMedia: URL
    /// What the glasses' microphone plays, as a 16 kHz WAV file: the question, a pause, then the
    /// voice command (each microphone stream plays it from its start).
    let microphone: URL
    /// The question the wearer asks the AI.
    static let questionText = "Where is the nearest hospital?"
    /// The wake phrase and command the wearer says to the voice assistant.
    static let commandText = "Hey glasses, take a photo."

    /// Voice notes: file name and what is said.
    static let notes = [
        ("REC_20261202_091500.wav", "Remember to buy green apples and fresh bread tomorrow morning."),
        ("REC_20261202_093000.wav", "The meeting with the design team moved to Thursday at ten."),
    ]

    /// Renders everything into `folder` (`media/`, `watch/` and `question.wav`).
    static func make(in folder: URL, videos: Int) async throws -> DemoContent {
        let media = folder.appendingPathComponent("media", isDirectory: true)
        try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
        // Videos: 4 s at 640x360, 30 fps, each with its own pan and shake, and its .gcsv beside it.
        try RenderedVideoLibrary.render(into: media, count: videos)
        for index in 1...videos {
            let from = media.appendingPathComponent("VID_rendered_\(index).mp4")
            let name = String(format: "VID_20261202_1015%02d.mp4", index)
            try FileManager.default.moveItem(at: from, to: media.appendingPathComponent(name))
            try FileManager.default.moveItem(
                at: from.appendingPathExtension("gcsv"), to: media.appendingPathComponent(name).appendingPathExtension("gcsv"))
        }
        // Photos: stills of the same scene from where the head points at four moments.
        let profile = LensProfile.aibudsGlasses
        let (width, height) = (1280, 720)
        let renderer = SyntheticRenderer(width: width, height: height, lens: profile.lens(width: width, height: height), readoutTime: 0)
        let look = SyntheticMotion(panRate: 0.4, shake: 0)
        for (index, time) in [0.0, 1.5, 3.0, 4.5].enumerated() {
            let jpeg = try StillPictures.jpeg(luma: renderer.render(look, at: time), width: width, height: height)
            try jpeg.write(to: media.appendingPathComponent(String(format: "IMG_20261202_1012%02d.jpg", index + 1)))
        }
        // Voice notes and the question, spoken by the offline provider (espeak-ng).
        let watchMedia = folder.appendingPathComponent("watch", isDirectory: true)
        try FileManager.default.createDirectory(at: watchMedia, withIntermediateDirectories: true)
        for (name, text) in notes {
            let speech = try await AIBudsAISDK.synthesizeText(text, language: "en")
            try WAVFile.write(speech, to: media.appendingPathComponent(name))
            try WAVFile.write(speech, to: watchMedia.appendingPathComponent(name))
        }
        let question = try await AIBudsAISDK.synthesizeText(questionText, language: "en").speechFormat()
        let command = try await AIBudsAISDK.synthesizeText(commandText, language: "en").speechFormat()
        let pause = [Int16](repeating: 0, count: 4 * question.sampleRate)
        let microphone = folder.appendingPathComponent("microphone.wav")
        try WAVFile.write(PCMAudio(sampleRate: question.sampleRate, channels: 1, samples: question.samples + pause + command.samples), to: microphone)
        return DemoContent(media: media, watchMedia: watchMedia, microphone: microphone)
    }
}
