import AIBudsPCM
import Foundation

/// The live AI sessions of the glasses.
public enum AISessionKind: String, Sendable, Codable, CaseIterable {
    /// The wearer talks, the assistant answers aloud (`startAIChat`).
    case chat
    /// A meeting is recorded: audio, transcript and summary (`startAIAudioRecording`).
    case audioRecording
    /// What is heard is translated and spoken in another language (`startSimultaneousInterpretation`).
    case simultaneousInterpretation
    /// What is heard is transcribed while it is spoken: partial transcripts, then each
    /// utterance's final one (`startStreamingASR`).
    case streamingASR
    /// One side of a conversation between two people in two languages: each turn is
    /// transcribed, translated and spoken to the other side (`startConversationTranslation`).
    case conversationTranslation
}

/// The device a session's audio comes from, as the session's observers and records show it.
public struct AISessionDeviceInfo: Sendable, Codable, Equatable {
    /// The device's name (`udp://...` or a product name for a device; `file` or `microphone` otherwise).
    public var name: String
    /// The device's MAC address, when the audio comes from a device.
    public var macAddress: String?
    /// The product (`glasses`, `earbuds`, ...), when known.
    public var product: String?

    /// Makes a description.
    public init(name: String, macAddress: String? = nil, product: String? = nil) {
        self.name = name
        self.macAddress = macAddress
        self.product = product
    }
}

/// What a session is started with: its languages, the assistant's instructions, the voice.
public struct AISessionParameters: Sendable, Codable, Equatable {
    /// The language spoken into the session (BCP 47, `en`).
    public var language: String
    /// The language speech is interpreted into (simultaneous interpretation only).
    public var targetLanguage: String?
    /// The assistant's instructions (chat only).
    public var systemPrompt: String
    /// The provider's voice for spoken output, `nil` for its default.
    public var voice: String?
    /// Chat generation settings.
    public var chatOptions: AIChatOptions
    /// Silence that ends an utterance, in seconds: the pause after which the session answers.
    public var endOfUtteranceSilence: Double
    /// The longest utterance, in seconds, before it is cut and processed anyway.
    public var maxUtteranceDuration: Double
    /// How often, in seconds of speech, the utterance being spoken is transcribed again for a
    /// `partialTranscript` event; nil for none (`startStreamingASR` uses 0.5 when nil). A partial
    /// is skipped while the previous one is still being transcribed, so a slow engine sends fewer.
    public var partialResultInterval: Double?

    /// English, a brief assistant, the provider's voice, 0.6 s of silence ends an utterance.
    public init(
        language: String = "en", targetLanguage: String? = nil,
        systemPrompt: String = "You are a helpful assistant on smart glasses. Answer in one or two short sentences.",
        voice: String? = nil, chatOptions: AIChatOptions = AIChatOptions(),
        endOfUtteranceSilence: Double = 0.6, maxUtteranceDuration: Double = 20, partialResultInterval: Double? = nil
    ) {
        self.partialResultInterval = partialResultInterval
        self.language = language
        self.targetLanguage = targetLanguage
        self.systemPrompt = systemPrompt
        self.voice = voice
        self.chatOptions = chatOptions
        self.endOfUtteranceSilence = endOfUtteranceSilence
        self.maxUtteranceDuration = maxUtteranceDuration
    }
}

/// One utterance's timing within a session, in seconds of the session's input audio.
public struct AIUtteranceSpan: Sendable, Codable, Equatable {
    /// The utterance's index in the session, from 0.
    public var index: Int
    /// Where its speech starts.
    public var start: Double
    /// Where its speech ends.
    public var end: Double

    /// The span of utterance `index`, from `start` to `end` seconds of input.
    public init(index: Int, start: Double, end: Double) {
        self.index = index
        self.start = start
        self.end = end
    }
}

/// What happens in a session, in order: the session's `events` stream and its observers see these.
public enum AISessionEvent: Sendable, Equatable {
    /// The session is listening to its source.
    case started
    /// Speech began in the input.
    case speechStarted(at: Double)
    /// An utterance ended (silence, the length limit, or the end of the source).
    case speechEnded(AIUtteranceSpan)
    /// What the utterance being spoken says so far (when the session's
    /// ``AISessionParameters/partialResultInterval`` is set); its final text comes as `transcript`,
    /// after which no partial of it follows.
    case partialTranscript(utterance: Int, text: String)
    /// An utterance's final transcript (a partial result of the whole session's transcript).
    case transcript(AIUtteranceSpan, AITranscript)
    /// One piece of the assistant's reply as the model produces it.
    case replyToken(utterance: Int, text: String)
    /// The assistant's whole reply to an utterance.
    case reply(utterance: Int, text: String)
    /// One utterance translated (simultaneous interpretation).
    case translatedSegment(utterance: Int, source: String, translation: String)
    /// Spoken output for an utterance began reaching the sink.
    case speaking(utterance: Int)
    /// The recording's summary (AI audio recording).
    case summary(String)
    /// The session ended normally after `stop()` or the end of its source.
    case finished
    /// The session ended with an error.
    case failed(AIError)
    /// The session ended through `cancel()`: nothing after this was processed or spoken.
    case canceled
}

/// What a session produced, once it has ended.
public struct AISessionResult: Sendable, Equatable {
    /// Which session produced it.
    public var kind: AISessionKind
    /// Each utterance's transcript in order.
    public var transcripts: [AITranscript]
    /// Each transcribed utterance's timing, in the order of `transcripts`.
    public var utterances: [AIUtteranceSpan]
    /// The assistant's replies (chat), one per utterance answered.
    public var replies: [String]
    /// The translations (interpretation), one per utterance.
    public var translations: [String]
    /// The summary (recording).
    public var summary: String?
    /// Seconds of input audio the session heard.
    public var inputDuration: Double
    /// Everything the session heard, 16 kHz mono (AI audio recording only).
    public var recordedAudio: PCMAudio?

    /// A result; everything but the kind defaults to empty.
    public init(
        kind: AISessionKind, transcripts: [AITranscript] = [], utterances: [AIUtteranceSpan] = [], replies: [String] = [], translations: [String] = [],
        summary: String? = nil, inputDuration: Double = 0, recordedAudio: PCMAudio? = nil
    ) {
        self.recordedAudio = recordedAudio
        self.utterances = utterances
        self.kind = kind
        self.transcripts = transcripts
        self.replies = replies
        self.translations = translations
        self.summary = summary
        self.inputDuration = inputDuration
    }

    /// Every transcript joined with spaces.
    public var transcriptText: String { transcripts.map(\.text).filter { !$0.isEmpty }.joined(separator: " ") }
}
