import AIBudsAudio
import Foundation

/// `aibuds audio vad FILE`: the speech segments of a WAV or Ogg/Opus file.
struct AudioVADCommand: CLICommand {
    static let path = ["audio", "vad"]
    static let abstract = "Find the speech in a WAV or Ogg/Opus file (voice activity detection)."
    static let help = """
        usage: aibuds audio vad FILE [--aggressiveness 0-3] [--frames] [--raw] [--json]

        Runs WebRTC's voice activity detector on 30 ms frames of FILE (converted to 16 kHz mono),
        smoothed as speech front ends do (speech starts after 60 ms of speech frames and ends after
        300 ms without), and prints one speech segment per line, 'START END' in seconds.

        options:
          --aggressiveness N  0 keeps the most speech, 3 rejects the most noise (default 2)
          --frames            print one 0/1 decision per 30 ms frame instead of segments
          --raw               the detector's own decisions, without the smoothing
          --json              print {"frame_ms", "frames"} or {"segments": [[start, end]]}
        """

    var file: String
    var aggressiveness: Int
    var perFrame: Bool
    var raw: Bool
    var json: Bool

    init(_ arguments: inout Arguments) throws {
        aggressiveness = try arguments.number("--aggressiveness") ?? 2
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
            decisions = try VoiceActivity.frames(in: audio, aggressiveness: aggressiveness, smoother: smoother)
        } catch {
            throw CommandFailure.failure("\(file): \(error)")
        }
        if perFrame {
            let bits = decisions.map { $0 ? "1" : "0" }
            CLI.say(json ? "{\"frame_ms\":\(VoiceActivity.frameMilliseconds),\"frames\":[\(bits.joined(separator: ","))]}"
                         : bits.joined())
            return .ok
        }
        let segments = try VoiceActivity.segments(in: audio, aggressiveness: aggressiveness, smoother: smoother)
        if json {
            let items = segments.map { String(format: "[%.2f,%.2f]", $0.lowerBound, $0.upperBound) }
            CLI.say("{\"segments\":[\(items.joined(separator: ","))]}")
        } else {
            for segment in segments { CLI.say(String(format: "%.2f %.2f", segment.lowerBound, segment.upperBound)) }
        }
        return .ok
    }
}
