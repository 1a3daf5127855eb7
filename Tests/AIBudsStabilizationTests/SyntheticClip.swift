@testable import AIBudsStabilization
import AIBudsSyntheticVideo
import AIBudsTestKit
import Foundation

/// A rendered test clip with its matching sidecars in a fresh folder.
struct SyntheticClip {
    let folder: URL
    let video: URL
    let gcsv: URL
    let lensJSON: URL
    let profile: LensProfile
    let motion: SyntheticMotion
    let frames: Int

    /// The lens of the test camera: a fisheye calibrated at 640×480 (so scaled to the clip).
    static let profile = LensProfile(
        calibrationWidth: 640, calibrationHeight: 480, focalLength: SIMD2(440, 440), principalPoint: SIMD2(320, 240),
        model: .opencvFisheye, coefficients: [0.05, -0.01, 0.002, 0], frameReadoutTime: 0.015, readoutDirection: .topToBottom)

    /// Renders `seconds` at `fps` of a 320×240 clip and writes it, its `.gcsv` (with `orientation`
    /// letters) and lens profile; with `audio`, adds a sine AAC track with the `ffmpeg` program.
    static func make(
        name: String, seconds: Double = 2, fps: Int = 30, motion: SyntheticMotion = SyntheticMotion(), orientation: String = "yXz",
        audio: Bool = false, profile: LensProfile = SyntheticClip.profile, encoder: String = "libx264"
    ) async throws -> SyntheticClip {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("aibuds-stab-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let width = 320, height = 240
        let count = Int(seconds * Double(fps))
        let silent = folder.appendingPathComponent(audio ? "silent.mp4" : "clip.mp4")
        try await onOwnThread {
            let renderer = SyntheticRenderer(
                width: width, height: height, lens: profile.lens(width: width, height: height), readoutTime: profile.frameReadoutTime ?? 0)
            try SyntheticVideoFiles.writeH264(frameCount: count, width: width, height: height, fps: fps, to: silent, encoder: encoder) {
                renderer.render(motion, at: Double($0) / Double(fps))
            }
        }
        var video = silent
        if audio {
            video = folder.appendingPathComponent("clip.mp4")
            let result = try await runProgram(
                URL(fileURLWithPath: "/usr/bin/ffmpeg"),
                ["-v", "error", "-y", "-i", silent.path, "-f", "lavfi", "-i", "sine=frequency=440:duration=\(seconds)", "-map", "0:v", "-map", "1:a",
                 "-c:v", "copy", "-c:a", "aac", "-shortest", video.path])
            guard result.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: result.err]) }
        }
        let gcsv = folder.appendingPathComponent("clip.mp4.gcsv")
        try writeTestFile(Array(SyntheticSidecars.gcsv(motion, seconds: seconds + 0.1, orientation: orientation, readoutMs: (profile.frameReadoutTime ?? 0) * 1000).utf8), to: gcsv)
        let lens = folder.appendingPathComponent("lens.json")
        try writeTestFile(Array(SyntheticSidecars.lensProfileJSON(profile).utf8), to: lens)
        return SyntheticClip(folder: folder, video: video, gcsv: gcsv, lensJSON: lens, profile: profile, motion: motion, frames: count)
    }

    /// Removes the folder.
    func remove() { try? FileManager.default.removeItem(at: folder) }
}
