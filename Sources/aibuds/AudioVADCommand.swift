import AIBudsAudio
import Foundation

/// `aibuds audio vad FILE`: the speech segments of a WAV or Ogg/Opus file.
struct AudioVADCommand: CLICommand {
    static let path = ["audio", "vad"]
    static let abstract = "Find the speech in a WAV or Ogg/Opus file (voice activity detection)."
    static let help = """
        usage: aibuds audio vad FILE [--engine silero|webrtc] [--aggressiveness 0-3] [--frames] [--raw]
                                [--json]

        Runs a voice activity detector on FILE (converted to 16 kHz mono): Silero VAD on 32 ms
        windows (the default; its model and ONNX Runtime come from scripts/vad-venv.sh) or WebRTC's
        on 30 ms frames, smoothed as speech front ends do (speech starts after two speech frames
        and ends after ten without), and prints one speech segment per line, 'START END' in seconds.

        options:
          --engine E          silero (default) or webrtc
          --aggressiveness N  WebRTC: 0 keeps the most speech, 3 rejects the most noise (default 2)
          --frames            print one 0/1 decision per 30 ms frame instead of segments
          --raw               the detector's own decisions, without the smoothing
          --json              print {"frame_ms", "frames"} or {"segments": [[start, end]]}
        """

    var file: String
    var engine: VoiceActivityEngine
    var perFrame: Bool
    var raw: Bool
    var json: Bool

    init(_ arguments: inout Arguments) throws {
        let aggressiveness = try arguments.number("--aggressiveness") ?? 2
        switch try arguments.option("--engine") ?? "silero" {
        case "silero": engine = .silero()
        case "webrtc": engine = .webrtc(aggressiveness: aggressiveness)
        case let other: throw CommandFailure.usage("--engine must be silero or webrtc, not '\(other)'")
        }
        perFrame = arguments.flag("--frames")
        raw = arguments.flag("--raw")
        json = arguments.flag("--json")
        let files = try arguments.positionals()
        guard files.count == 1, let file = files.first else { throw CommandFailure.usage("give exactly one FILE") }
        guard (0...3).contains(aggressiveness) else { throw CommandFailure.usage("--aggressiveness takes 0 to 3") }
        self.file = file
    }

    /// The smoothing: none with `--raw`.
    var smoother: VoiceActivitySmoother {
        raw ? VoiceActivitySmoother(onsetFrames: 1, hangoverFrames: 0) : VoiceActivitySmoother()
    }

    func run() async throws -> ExitCode {
        let audio: PCMAudio
        let decisions: [Bool]
        do {
            audio = try AudioFile.read(from: URL(fileURLWithPath: file))
            decisions = try VoiceActivity.frames(in: audio, engine: engine, smoother: smoother)
        } catch {
            throw CommandFailure.failure("\(file): \(error)")
        }
        if perFrame {
            let bits = decisions.map { $0 ? "1" : "0" }
            CLI.say(json ? "{\"frame_ms\":\(engine.frameMilliseconds),\"frames\":[\(bits.joined(separator: ","))]}"
                         : bits.joined())
            return .ok
        }
        let segments = try VoiceActivity.segments(in: audio, engine: engine, smoother: smoother)
        if json {
            let items = segments.map { String(format: "[%.2f,%.2f]", $0.lowerBound, $0.upperBound) }
            CLI.say("{\"segments\":[\(items.joined(separator: ","))]}")
        } else {
            for segment in segments { CLI.say(String(format: "%.2f %.2f", segment.lowerBound, segment.upperBound)) }
        }
        return .ok
    }
}
