import AIBudsPCM
import CWebRTCVAD

/// WebRTC's voice activity detector (a Gaussian mixture model over six sub-band energies, the one
/// in browsers and in libfvad), from Debian's libwebrtc-audio-processing. Decides 10, 20 or 30 ms
/// frames of 16-bit mono audio. One owner at a time (not thread-safe).
public final class WebRTCVoiceActivityDetector {
    /// How readily the detector calls a frame non-speech: 0 keeps the most speech, 3 rejects the
    /// most noise.
    public let aggressiveness: Int
    private let handle: OpaquePointer

    /// Creates a detector; `aggressiveness` is 0 to 3.
    public init(aggressiveness: Int = 2) throws {
        guard (0...3).contains(aggressiveness) else {
            throw AudioError.invalidFormat("VAD aggressiveness \(aggressiveness) is outside 0...3")
        }
        guard let handle = WebRtcVad_Create() else {
            throw AudioError.engineUnavailable("WebRTC VAD: cannot allocate a detector")
        }
        guard WebRtcVad_Init(handle) == 0, WebRtcVad_set_mode(handle, Int32(aggressiveness)) == 0 else {
            WebRtcVad_Free(handle)
            throw AudioError.engineUnavailable("WebRTC VAD: cannot initialize mode \(aggressiveness)")
        }
        self.handle = handle
        self.aggressiveness = aggressiveness
    }

    deinit { WebRtcVad_Free(handle) }

    /// Whether `frame` (10, 20 or 30 ms at `sampleRate` 8, 16, 32 or 48 kHz) holds speech.
    public func isSpeech(_ frame: ArraySlice<Int16>, sampleRate: Int = PCMAudio.speechSampleRate) throws -> Bool {
        guard [8_000, 16_000, 32_000, 48_000].contains(sampleRate),
              [sampleRate / 100, sampleRate / 50, sampleRate * 3 / 100].contains(frame.count) else {
            throw AudioError.invalidFormat("WebRTC VAD takes 10, 20 or 30 ms at 8/16/32/48 kHz, not \(frame.count) samples at \(sampleRate) Hz")
        }
        let result = frame.withUnsafeBufferPointer { WebRtcVad_Process(handle, Int32(sampleRate), $0.baseAddress!, $0.count) }
        guard result >= 0 else { throw AudioError.engineUnavailable("WebRTC VAD rejected the frame") }
        return result == 1
    }
}

/// Turns per-frame speech decisions into speech segments the way speech front ends do: speech
/// starts after `onsetFrames` speech frames in a row (so a click is not speech), and ends after
/// `hangoverFrames` non-speech frames in a row (so pauses between words stay inside), with the
/// onset frames and the hangover counted as speech.
public struct VoiceActivitySmoother: Sendable {
    /// Speech frames in a row that start speech.
    public let onsetFrames: Int
    /// Non-speech frames in a row that end speech.
    public let hangoverFrames: Int

    /// Creates a smoother (defaults: 30 ms frames, 2 to start, 300 ms to end).
    public init(onsetFrames: Int = 2, hangoverFrames: Int = 10) {
        self.onsetFrames = max(1, onsetFrames)
        self.hangoverFrames = max(0, hangoverFrames)
    }

    /// The smoothed decision of every frame.
    public func smooth(_ raw: [Bool]) -> [Bool] {
        var out = [Bool](repeating: false, count: raw.count)
        var inSpeech = false
        var run = 0       // speech frames in a row while outside speech
        var silence = 0   // non-speech frames in a row while inside speech
        for (index, speech) in raw.enumerated() {
            if inSpeech {
                silence = speech ? 0 : silence + 1
                if silence > hangoverFrames {
                    inSpeech = false
                    run = 0
                } else {
                    out[index] = true
                }
            } else {
                run = speech ? run + 1 : 0
                if run >= onsetFrames {
                    inSpeech = true
                    silence = 0
                    for back in (index - run + 1)...index { out[back] = true }
                }
            }
        }
        return out
    }
}

/// Which detector decides: Silero (picked by measurement, docs/benchmarks.md) or WebRTC's.
public enum VoiceActivityEngine: Sendable, Equatable {
    /// Silero VAD through ONNX Runtime, 32 ms windows, speech from `threshold` on.
    case silero(threshold: Float = 0.5)
    /// WebRTC's VAD, 30 ms frames, `aggressiveness` 0 to 3.
    case webrtc(aggressiveness: Int = 2)

    /// The length of one decision.
    public var frameMilliseconds: Int {
        switch self {
        case .silero: 32
        case .webrtc: 30
        }
    }
}

/// Voice activity of whole recordings: a detector's decision per frame, then the smoother.
public enum VoiceActivity {
    /// The smoothed speech decision of each frame (``VoiceActivityEngine/frameMilliseconds``) of
    /// `audio`, converted to 16 kHz mono.
    public static func frames(in audio: PCMAudio, engine: VoiceActivityEngine = .silero(),
                              smoother: VoiceActivitySmoother = VoiceActivitySmoother()) throws -> [Bool] {
        let speech = try audio.speechFormat().samples
        var raw: [Bool] = []
        switch engine {
        case .silero(let threshold):
            let detector = try SileroVoiceActivityDetector(threshold: threshold)
            let size = SileroVoiceActivityDetector.windowSamples
            for start in stride(from: 0, through: speech.count - size, by: size) {
                raw.append(try detector.isSpeech(speech[start..<(start + size)]))
            }
        case .webrtc(let aggressiveness):
            let detector = try WebRTCVoiceActivityDetector(aggressiveness: aggressiveness)
            let size = PCMAudio.speechSampleRate * 30 / 1000
            for start in stride(from: 0, through: speech.count - size, by: size) {
                raw.append(try detector.isSpeech(speech[start..<(start + size)]))
            }
        }
        return smoother.smooth(raw)
    }

    /// The speech segments of `audio`, as ranges of seconds.
    public static func segments(in audio: PCMAudio, engine: VoiceActivityEngine = .silero(),
                                smoother: VoiceActivitySmoother = VoiceActivitySmoother()) throws -> [ClosedRange<Double>] {
        let decisions = try frames(in: audio, engine: engine, smoother: smoother)
        let frame = Double(engine.frameMilliseconds) / 1000
        var segments: [ClosedRange<Double>] = []
        var start: Int?
        for (index, speech) in (decisions + [false]).enumerated() {
            if speech, start == nil { start = index }
            if !speech, let begin = start {
                segments.append(Double(begin) * frame...Double(index) * frame)
                start = nil
            }
        }
        return segments
    }
}
