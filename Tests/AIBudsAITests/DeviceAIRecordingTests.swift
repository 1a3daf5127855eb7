import AIBudsAIFoundation
import AIBudsAudio
import AIBudsTestKit
import Foundation
import Testing

/// The AI side end to end from a device, as a wearer uses it: `aibuds ai record --device` against
/// emulated glasses whose microphone plays espeak-ng speech; the audio crosses the control link as
/// Opus and is transcribed by the offline provider (Moonshine), then summarized.
@Suite(.timeLimit(.minutes(3))) struct DeviceAIRecordingTests {
    /// The built `aibuds` beside the test bundle.
    static let executable: URL? = builtProduct("aibuds")

    @Test(.enabled(if: executable != nil, "the aibuds executable is not built"))
    func aSpokenFileIsTranscribedWordForWordAtEveryRate() async throws {
        // The file path once garbled what the microphone path got right: espeak-ng's own 22,050 Hz,
        // and the same speech at 16 kHz and 44.1 kHz, each through `aibuds ai transcribe FILE`.
        let aibuds = try #require(Self.executable)
        let directory = try makeTemporaryDirectory("ai-transcribe-file")
        defer { try? FileManager.default.removeItem(at: directory) }
        let sentence = "Please remind me to buy green apples and fresh bread tomorrow morning."
        let native = directory.appendingPathComponent("say.wav")
        let espeak = try await runProgram(URL(fileURLWithPath: "/usr/bin/espeak-ng"), ["-v", "en-us", "-w", native.path, sentence])
        try #require(espeak.status == 0)
        var files = [native]
        for rate in [16_000, 44_100] {
            let converted = directory.appendingPathComponent("say-\(rate).wav")
            let sox = try await runProgram(URL(fileURLWithPath: "/usr/bin/sox"), [native.path, "-r", String(rate), converted.path])
            try #require(sox.status == 0, "sox: \(sox.err)")
            files.append(converted)
        }
        for file in files {
            let result = try await runProgram(aibuds, ["ai", "transcribe", file.path, "--provider", "offline"])
            #expect(result.status == 0, "\(result.err)")
            let wer = WordErrorRate(reference: sentence, hypothesis: result.out)
            #expect(wer.rate <= 0.1, "\(file.lastPathComponent): '\(result.out)' (WER \(wer.rate))")
        }
    }

    @Test(.enabled(if: executable != nil, "the aibuds executable is not built"))
    func aRecordingFromTheGlassesMicrophoneIsTranscribedAndSummarized() async throws {
        let aibuds = try #require(Self.executable)
        let directory = try makeTemporaryDirectory("ai-device-record")
        let runtime = directory.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        let environment = ["XDG_RUNTIME_DIR": runtime.path, "XDG_DATA_HOME": runtime.path]
        // Digits read as words are within PocketSphinx's reach on espeak's voice.
        let words = ["one", "two", "three", "four", "five", "six", "seven"]
        let speech = try await synthesizeSpeech(words.joined(separator: " "), speed: 140)
        let mic = directory.appendingPathComponent("mic.wav")
        try WAVFile.write(speech, to: mic)

        let (emulator, address) = try await RunningProgram.emulator(aibuds, [
            "--profile", "glasses", "--name", "AI Glasses", "--mic", mic.path,
        ], environment: environment)
        defer { emulator.terminate() }

        let output = directory.appendingPathComponent("meeting")
        let recorder = try RunningProgram(aibuds, [
            "ai", "record", "--device", address, "--to", output.path, "--provider", "offline",
        ], environment: environment)
        defer { recorder.kill() }
        // The speech is one utterance: once it is heard, the microphone has played it all.
        var printed = ""
        while !printed.contains("heard:") {
            guard let line = try await onOwnThread({ recorder.readLine() }) else { break }
            printed += line
        }
        try #require(printed.contains("heard:"), "the recording ended without an utterance: \(printed)")
        // Ctrl-C ends the recording; what was heard is still summarized and written.
        recorder.interrupt()
        let heardSoFar = printed
        let result = try await onOwnThread { recorder.finish(alreadyRead: heardSoFar) }
        #expect(result.status == 0, "\(result.out)\(result.err)")
        #expect(result.out.contains("wrote recording.wav"), "\(result.out)")

        let transcript = try String(contentsOf: output.appendingPathComponent("transcript.txt"), encoding: .utf8)
        let heard = Set(transcript.lowercased().split { !$0.isLetter }.map(String.init)).intersection(words)
        #expect(heard.count >= 4, "transcript: '\(transcript)'")
        let recording = try WAVFile.read(from: output.appendingPathComponent("recording.wav"))
        #expect(recording.sampleRate == 16_000 && recording.channels == 1)
        #expect(recording.duration >= speech.duration, "recorded \(recording.duration) s of \(speech.duration) s of speech")
        let summary = try String(contentsOf: output.appendingPathComponent("summary.txt"), encoding: .utf8)
        #expect(!summary.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
    }
    @Test(.enabled(if: executable != nil, "the aibuds executable is not built"))
    func sessionsAreRecordedForTheDashboardUnlessTurnedOff() async throws {
        let aibuds = try #require(Self.executable)
        let directory = try makeTemporaryDirectory("ai-records")
        let speech = try await spokenWAV("one two three", in: directory, name: "speech")
        func record(_ options: [String], home: URL) async throws -> ProgramResult {
            try await runProgram(aibuds, [
                "ai", "record", "--input", speech.path, "--to", directory.appendingPathComponent("out").path, "--provider", "offline",
            ] + options, environment: ["XDG_DATA_HOME": home.path, "XDG_RUNTIME_DIR": directory.path])
        }

        // By default the session goes where `aibuds dashboard` looks.
        let home = directory.appendingPathComponent("home")
        let recorded = try await record([], home: home)
        #expect(recorded.status == 0, "\(recorded.out)\(recorded.err)")
        let exported = directory.appendingPathComponent("export")
        let export = try await runProgram(
            aibuds, ["dashboard", "--export", exported.path], environment: ["XDG_DATA_HOME": home.path])
        #expect(export.status == 0 && export.out.contains("exported 1 records"), "\(export.out)\(export.err)")
        let records = try JSONSerialization.jsonObject(with: Data(contentsOf: exported.appendingPathComponent("records.json"))) as? [[String: Any]]
        let summary = try #require(records?.first?["summary"] as? [String: Any])
        #expect(summary["kind"] as? String == "ai-recording" && summary["status"] as? String == "finished", "\(summary)")

        // --no-records leaves no store behind; --records with --no-records is a usage error.
        let quiet = directory.appendingPathComponent("quiet")
        let unrecorded = try await record(["--no-records"], home: quiet)
        #expect(unrecorded.status == 0, "\(unrecorded.err)")
        #expect(!FileManager.default.fileExists(atPath: quiet.appendingPathComponent("aibuds/dashboard").path))
        let both = try await record(["--no-records", "--records", quiet.path], home: quiet)
        #expect(both.status == 64, "\(both.err)")
    }
}
