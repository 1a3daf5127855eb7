import AIBudsAIFoundation
import AIBudsAudio
import AIBudsFoundation
import AIBudsSync
import Foundation

/// One person of a conversation translation: where their speech is heard, the language they
/// speak, and where the other person's words, translated, are spoken to them.
public struct ConversationSide: Sendable {
    /// Where this person's speech is heard (the glasses' microphone, this machine's, a file).
    public var source: any AIAudioSource
    /// The language this person speaks and hears (BCP 47: `en`, `es`).
    public var language: String
    /// Where the other person's turns are spoken to this person, translated; nil: only events.
    public var sink: (any AIAudioSink)?
    /// The provider that transcribes this person's language, when the selected one does not (a
    /// multilingual recognizer for the second language); nil: the selected provider.
    public var transcriber: (any AIConnectSDK)?
    /// The provider's voice for the speech this person hears; nil: its default for the language.
    public var voice: String?

    /// A person speaking `language` on `source`, hearing the other's turns on `sink`.
    public init(
        source: any AIAudioSource, language: String, sink: (any AIAudioSink)?, transcriber: (any AIConnectSDK)? = nil, voice: String? = nil
    ) {
        self.source = source
        self.language = language
        self.sink = sink
        self.transcriber = transcriber
        self.voice = voice
    }
}

/// A conversation between two people in two languages (the wiki's "Conversation Translation"):
/// each side is a session of kind `conversationTranslation` that finds the turns of its person by
/// voice activity, transcribes each turn, translates it into the other person's language and
/// speaks it on the other person's sink. Both sides listen at once.
public final class ConversationTranslation: Sendable {
    /// The two sides' sessions, in the order the sides were given.
    public let sessions: [AISession]
    /// Every event of both sides, tagged with the side (0 or 1), in the order each side emits them.
    public let events: AsyncStream<(side: Int, event: AISessionEvent)>

    init(sessions: [AISession]) {
        self.sessions = sessions
        let (stream, output) = AsyncStream.makeStream(of: (side: Int, event: AISessionEvent).self)
        events = stream
        let remaining = Locked(sessions.count)
        for (side, session) in sessions.enumerated() {
            Task {
                for await event in session.events { output.yield((side, event)) }
                if remaining.withLock({ count in count -= 1; return count == 0 }) { output.finish() }
            }
        }
    }

    /// Stops listening on both sides; the turns already heard are still translated and spoken.
    public func stop() { sessions.forEach { $0.stop() } }
    /// Ends both sides at once.
    public func cancel() { sessions.forEach { $0.cancel() } }

    /// Both sides' results once both have ended (the first side's first); the first failure is
    /// thrown once both have ended.
    public func result() async throws -> [AISessionResult] {
        var results: [AISessionResult] = []
        var failure: (any Error)?
        for session in sessions {
            do { results.append(try await session.result()) } catch { failure = failure ?? error }
        }
        if let failure { throw failure }
        return results
    }
}

extension AIBudsAISDK {
    /// Starts a conversation translation between `first` and `second`: what one says is
    /// transcribed (by its side's transcriber, else the selected provider), translated into the
    /// other's language and spoken on the other's sink by the selected provider. Throws when the
    /// languages are the same, or a provider lacks transcription, translation or (with a sink)
    /// speech.
    public static func startConversationTranslation(
        _ first: ConversationSide, _ second: ConversationSide, parameters: AISessionParameters = AISessionParameters()
    ) async throws -> ConversationTranslation {
        guard !first.language.isEmpty, !second.language.isEmpty, first.language.lowercased() != second.language.lowercased() else {
            throw AIError(.invalidParameters, "a conversation translation needs two different languages")
        }
        let speaks = first.sink != nil || second.sink != nil
        let selected = try await provider(for: AICapabilities.translation.union(speaks ? .speech : []))
        var sessions: [AISession] = []
        for (side, other) in [(first, second), (second, first)] {
            let transcriber = side.transcriber ?? selected
            guard transcriber.capabilities.contains(.transcription) else {
                throw AIError(.capabilityUnsupported, "\(transcriber.providerName) does not transcribe speech")
            }
            var sideParameters = parameters
            sideParameters.language = side.language
            sideParameters.targetLanguage = other.language
            sideParameters.voice = other.voice
            sessions.append(start(
                .conversationTranslation, sideParameters, side.source, other.sink,
                provider: TranscribingWith(transcriber: transcriber, rest: selected)))
        }
        return ConversationTranslation(sessions: sessions)
    }
}

/// A provider that transcribes with one provider and does the rest with another: one side of a
/// conversation whose language the selected provider does not recognize.
final class TranscribingWith: AIConnectSDK {
    let transcriber: any AIConnectSDK
    let rest: any AIConnectSDK

    init(transcriber: any AIConnectSDK, rest: any AIConnectSDK) {
        self.transcriber = transcriber
        self.rest = rest
    }

    var providerName: String { transcriber === rest ? rest.providerName : "\(transcriber.providerName)+\(rest.providerName)" }
    var vendor: AIServiceVendor { rest.vendor }
    var capabilities: AICapabilities { rest.capabilities.union(transcriber.capabilities.intersection(.transcription)) }

    func prepare() async throws {
        try await transcriber.prepare()
        if transcriber !== rest { try await rest.prepare() }
    }

    func transcribe(_ audio: PCMAudio, language: String?) async throws -> AITranscript {
        try await transcriber.transcribe(audio, language: language)
    }

    func synthesize(_ text: String, language: String, voice: String?) async throws -> PCMAudio {
        try await rest.synthesize(text, language: language, voice: voice)
    }

    func translate(_ text: String, from source: String, to target: String) async throws -> String {
        try await rest.translate(text, from: source, to: target)
    }
}
