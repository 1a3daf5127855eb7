import AIBudsSync
import AIBudsAIFoundation
import AIBudsAudio
import Foundation

/// A session source that plays a WAV file in chunks, at the speed it was recorded (like a
/// microphone) or as fast as the session takes it.
public struct WAVFileAudioSource: AIAudioSource {
    /// The WAV file (16-bit PCM, any rate, mono or stereo).
    public let url: URL
    /// Seconds of audio per chunk.
    public let chunkDuration: Double
    /// Whether chunks are paced at real time (as a live microphone delivers them).
    public let realTime: Bool
    /// Seconds of silence appended after the file, so a session hears the last utterance end.
    public let trailingSilence: Double

    /// Describes the source; the file is read when the session starts.
    public init(url: URL, chunkDuration: Double = 0.1, realTime: Bool = false, trailingSilence: Double = 1) {
        self.url = url
        self.chunkDuration = chunkDuration
        self.realTime = realTime
        self.trailingSilence = trailingSilence
    }

    /// `file` with the file's path.
    public var deviceInfo: AISessionDeviceInfo { AISessionDeviceInfo(name: "file:\(url.path)") }

    /// Reads the file and streams it; a file that cannot be read fails the stream.
    public func audioChunks() -> AsyncThrowingStream<PCMAudio, any Error> {
        let (stream, output) = AsyncThrowingStream.makeStream(of: PCMAudio.self, throwing: (any Error).self)
        let task = Task { [self] in
            do {
                var audio = try WAVFile.read(from: url)
                audio.samples += [Int16](repeating: 0, count: Int(trailingSilence * Double(audio.sampleRate)) * audio.channels)
                let frames = max(1, Int(chunkDuration * Double(audio.sampleRate)))
                let clock = ContinuousClock()
                let begin = clock.now
                var start = 0
                while start < audio.frameCount {
                    try Task.checkCancellation()
                    let chunk = audio.slice(frames: start..<(start + frames))
                    start += frames
                    if realTime {
                        try await clock.sleep(until: begin + .seconds(Double(start) / Double(audio.sampleRate)))
                    }
                    output.yield(chunk)
                }
                output.finish()
            } catch {
                output.finish(throwing: error)
            }
        }
        output.onTermination = { _ in task.cancel() }
        return stream
    }
}

/// A session source of audio already in memory, handed out in chunks as fast as it is taken.
public struct PCMAudioSource: AIAudioSource {
    /// The audio handed out, in 100 ms chunks.
    public let audio: PCMAudio
    /// What observers see as the device.
    public let deviceInfo: AISessionDeviceInfo

    /// Wraps `audio`.
    public init(_ audio: PCMAudio, deviceInfo: AISessionDeviceInfo = AISessionDeviceInfo(name: "memory")) {
        self.audio = audio
        self.deviceInfo = deviceInfo
    }

    /// The audio in 100 ms chunks.
    public func audioChunks() -> AsyncThrowingStream<PCMAudio, any Error> {
        let frames = max(1, audio.sampleRate / 10)
        var chunks: [PCMAudio] = []
        var start = 0
        while start < audio.frameCount {
            chunks.append(audio.slice(frames: start..<(start + frames)))
            start += frames
        }
        return AsyncThrowingStream { output in
            for chunk in chunks { output.yield(chunk) }
            output.finish()
        }
    }
}

/// A session sink that keeps the speech in memory and, when the session finishes, writes it to a
/// WAV file (if given one). Pieces of another rate are resampled to the first piece's rate.
public final class WAVFileAudioSink: AIAudioSink {
    /// Where the speech is written at the end, if anywhere.
    public let url: URL?
    private let audio = Locked<PCMAudio?>(nil)

    /// A sink that writes to `url` when the session finishes (or only keeps the audio when `nil`).
    public init(url: URL?) {
        self.url = url
    }

    /// All the speech received so far.
    public var received: PCMAudio? { audio.withLock { $0 } }

    /// Appends the speech.
    public func play(_ piece: PCMAudio) async throws {
        try audio.withLock { stored in
            guard var whole = stored else {
                stored = piece
                return
            }
            let matched = try SpeechFormat.convert(piece, toRate: whole.sampleRate, channels: whole.channels)
            whole.samples += matched.samples
            stored = whole
        }
    }

    /// Writes the file.
    public func finish() async throws {
        guard let url, let whole = audio.withLock({ $0 }) else { return }
        try WAVFile.write(whole, to: url)
    }
}
