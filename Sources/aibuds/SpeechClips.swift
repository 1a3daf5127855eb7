import AIBudsAudio
import AIBudsProcess
import Foundation

/// Generated speech for the speech benchmarks: espeak-ng voices at set speeds, at 16 kHz mono,
/// with white noise mixed in at a chosen SNR.
enum SpeechClips {
    /// The three espeak-ng voices the benchmarks speak with.
    static let voices = ["en-us", "en-gb-x-rp", "en-us+f3"]
    /// Words a minute.
    static let speeds = [150, 190]

    /// `text` said by espeak-ng's `voice` at `speed` words a minute, 16 kHz mono.
    static func speak(_ text: String, voice: String, speed: Int) async throws -> PCMAudio {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("aibuds-speech-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("clip.wav")
        let espeak = try await ChildProcess.run(
            "/usr/bin/espeak-ng", ["-v", voice, "-s", String(speed), "-w", file.path, text], timeout: .seconds(60))
        guard espeak.termination.succeeded else {
            throw CommandFailure.failure("espeak-ng failed: \(String(decoding: espeak.errors, as: UTF8.self))")
        }
        return try WAVFile.read(from: file).speechFormat()
    }

    /// `audio` with white noise at `snr` dB below its power (seeded, so every run hears the same).
    static func mixNoise(_ audio: PCMAudio, snr: Double, seed: UInt64) -> PCMAudio {
        let power = audio.samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(1, audio.samples.count))
        let deviation = (power / pow(10, snr / 10)).squareRoot()
        var state = seed &* 0x9E37_79B9_7F4A_7C15
        func uniform() -> Double {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return (Double(state >> 11) + 0.5) / Double(1 << 53)
        }
        let noisy = audio.samples.map { sample -> Int16 in
            // Box–Muller: a normal sample of the wanted deviation.
            let gaussian = (-2 * log(uniform())).squareRoot() * cos(2 * .pi * uniform())
            return Int16(clamping: Int((Double(sample) + gaussian * deviation).rounded()))
        }
        return PCMAudio(sampleRate: audio.sampleRate, channels: audio.channels, samples: noisy)
    }

    /// The process's peak resident memory so far, in MiB.
    static var peakMemoryMiB: Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_maxrss) / 1024
    }
}
