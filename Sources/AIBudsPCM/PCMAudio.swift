/// Interleaved signed 16-bit PCM: the one in-memory audio type of the project. 16 kHz mono is the
/// speech format (`PCMAudio.speechSampleRate`); other rates come from files and are resampled.
public struct PCMAudio: Sendable, Equatable {
    /// The speech format's sample rate: the device's microphone and speaker, Opus frames, VAD.
    public static let speechSampleRate = 16_000

    /// Frames per second (a frame is one sample of every channel).
    public var sampleRate: Int
    /// Interleaved channels per frame (1 = mono, 2 = stereo).
    public var channels: Int
    /// The samples, channel-interleaved (`samples.count` is a multiple of `channels`).
    public var samples: [Int16]

    /// Makes audio from interleaved samples; no check here (`validate()` and the file readers check).
    public init(sampleRate: Int, channels: Int, samples: [Int16]) {
        self.sampleRate = sampleRate
        self.channels = channels
        self.samples = samples
    }

    /// The number of frames (samples per channel).
    public var frameCount: Int { channels > 0 ? samples.count / channels : 0 }

    /// The length in seconds (0 for audio without a valid rate).
    public var duration: Double { sampleRate > 0 ? Double(frameCount) / Double(sampleRate) : 0 }

    /// Throws `AudioError.invalidFormat` unless the rate, the channel count and the sample count fit.
    public func validate() throws {
        guard (1...768_000).contains(sampleRate) else {
            throw AudioError.invalidFormat("sample rate \(sampleRate) Hz is outside 1...768000")
        }
        guard (1...255).contains(channels) else {
            throw AudioError.invalidFormat("\(channels) channels is outside 1...255")
        }
        guard samples.count % channels == 0 else {
            throw AudioError.invalidFormat("\(samples.count) samples do not fill whole frames of \(channels) channels")
        }
    }

    /// The channels averaged into one (mono audio is returned unchanged).
    public func mixedToMono() -> PCMAudio {
        guard channels > 1 else { return self }
        var mono = [Int16]()
        mono.reserveCapacity(frameCount)
        for frame in 0..<frameCount {
            var sum = 0
            for channel in 0..<channels { sum += Int(samples[frame * channels + channel]) }
            mono.append(Int16(sum / channels))
        }
        return PCMAudio(sampleRate: sampleRate, channels: 1, samples: mono)
    }

    /// Frames `range` (in frames, clamped to the audio) as new audio of the same format.
    public func slice(frames range: Range<Int>) -> PCMAudio {
        let lower = max(0, min(range.lowerBound, frameCount))
        let upper = max(lower, min(range.upperBound, frameCount))
        return PCMAudio(
            sampleRate: sampleRate, channels: channels,
            samples: Array(samples[(lower * channels)..<(upper * channels)]))
    }
}
