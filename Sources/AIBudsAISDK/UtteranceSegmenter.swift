import AIBudsAIFoundation
import AIBudsAudio

/// One stretch of speech cut from a session's input, 16 kHz mono.
struct Utterance: Sendable {
    /// Its place and timing in the session.
    var span: AIUtteranceSpan
    /// The speech with a little of the quiet around it.
    var audio: PCMAudio
}

/// Cuts 16 kHz mono audio into utterances: speech that a pause of `endSilence` seconds ends, or
/// that reached `maxDuration`. Frame by frame (20 ms), with a speech detector deciding each frame;
/// 0.2 s before the speech and up to 0.5 s after it (the pause that ended it, when shorter) are
/// kept, so no word's edge is cut and the recognizer hears the sentence end: Moonshine misheard
/// "Where is the nearest hospital?" from the glasses' microphone as "Where is none of your risk
/// hospital?" with 0.2 s after it and heard it right with 0.5 s.
struct UtteranceSegmenter {
    /// What the segmenter reports as audio goes in.
    enum Output: Equatable {
        case speechStarted(at: Double)
        case utterance(AIUtteranceSpan)
    }

    static let frameLength = 320
    static let rate = Double(PCMAudio.speechSampleRate)
    private let endSilenceFrames: Int
    private let maxFrames: Int
    private let minSpeechFrames = 10
    private let prerollFrames = 10
    private let tailFrames = 25
    private let isSpeech: ([Int16]) -> Bool

    private var pending: [Int16] = []
    /// Audio since the current utterance's pre-roll began (or the recent pre-roll when idle).
    private var buffer: [Int16] = []
    /// Frame index (of the whole input) where `buffer` starts.
    private var bufferStartFrame = 0
    private var frameIndex = 0
    private var inSpeech = false
    private var speechStartFrame = 0
    private var lastSpeechFrame = 0
    private var speechFrames = 0
    private var nextIndex = 0
    private(set) var finished: [Utterance] = []

    init(endSilence: Double, maxDuration: Double, isSpeech: @escaping ([Int16]) -> Bool) {
        endSilenceFrames = max(1, Int(endSilence * Self.rate) / Self.frameLength)
        maxFrames = max(50, Int(maxDuration * Self.rate) / Self.frameLength)
        self.isSpeech = isSpeech
    }

    /// Feeds samples; returns what happened. Finished utterances are collected in `takeFinished()`.
    mutating func feed(_ samples: [Int16]) -> [Output] {
        pending += samples
        var outputs: [Output] = []
        var consumed = 0
        while pending.count - consumed >= Self.frameLength {
            let frame = Array(pending[consumed..<(consumed + Self.frameLength)])
            consumed += Self.frameLength
            outputs += step(frame)
        }
        pending.removeFirst(consumed)
        return outputs
    }

    /// Ends the input: speech still open becomes a last utterance.
    mutating func flush() -> [Output] {
        guard inSpeech else { return [] }
        return close(at: frameIndex)
    }

    /// The utterance being spoken, once it has enough speech to be one: its index and its audio so
    /// far (from its pre-roll), for a partial transcript; nil between utterances.
    var openUtterance: (index: Int, audio: PCMAudio)? {
        guard inSpeech, speechFrames >= minSpeechFrames else { return nil }
        return (nextIndex, PCMAudio(sampleRate: PCMAudio.speechSampleRate, channels: 1, samples: buffer))
    }

    /// Frames of speech heard in the open utterance (0 between utterances).
    var openSpeechFrames: Int { inSpeech ? speechFrames : 0 }

    /// The utterances finished since the last call.
    mutating func takeFinished() -> [Utterance] {
        defer { finished = [] }
        return finished
    }

    private mutating func step(_ frame: [Int16]) -> [Output] {
        var outputs: [Output] = []
        let speech = isSpeech(frame)
        buffer += frame
        if !inSpeech {
            if speech {
                inSpeech = true
                speechStartFrame = frameIndex
                lastSpeechFrame = frameIndex
                speechFrames = 1
                outputs.append(.speechStarted(at: Double(frameIndex * Self.frameLength) / Self.rate))
            } else {
                let excess = buffer.count / Self.frameLength - prerollFrames
                if excess > 0 {
                    buffer.removeFirst(excess * Self.frameLength)
                    bufferStartFrame += excess
                }
            }
        } else if speech {
            lastSpeechFrame = frameIndex
            speechFrames += 1
        }
        frameIndex += 1
        if inSpeech {
            if frameIndex - 1 - lastSpeechFrame >= endSilenceFrames || frameIndex - speechStartFrame >= maxFrames {
                outputs += close(at: frameIndex)
            }
        }
        return outputs
    }

    private mutating func close(at endFrame: Int) -> [Output] {
        inSpeech = false
        defer {
            buffer = []
            bufferStartFrame = endFrame
        }
        guard speechFrames >= minSpeechFrames else { return [] }
        let keepUntil = min(endFrame, lastSpeechFrame + 1 + tailFrames)
        let count = min(buffer.count, (keepUntil - bufferStartFrame) * Self.frameLength)
        let span = AIUtteranceSpan(
            index: nextIndex, start: Double(speechStartFrame * Self.frameLength) / Self.rate,
            end: Double((lastSpeechFrame + 1) * Self.frameLength) / Self.rate)
        nextIndex += 1
        finished.append(Utterance(
            span: span,
            audio: PCMAudio(sampleRate: PCMAudio.speechSampleRate, channels: 1, samples: Array(buffer.prefix(count)))))
        return [.utterance(span)]
    }
}
