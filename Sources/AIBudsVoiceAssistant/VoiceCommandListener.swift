import AIBudsAIFoundation
import AIBudsAISDK
import AIBudsOfflineAI

/// The ears of the voice assistant: streaming speech recognition on an audio source, a wake phrase
/// at the start of an utterance, and the command said with it (or in the next utterance, within
/// ``Configuration/commandWindow`` seconds) turned into an ``/AIBudsAIFoundation/AIIntent`` by the
/// grammar. It acts on nothing: ``VoiceAssistant`` carries the commands out on a device, and the
/// assistant's benchmark counts what it heard.
public struct VoiceCommandListener: Sendable {
    /// What the assistant listens for.
    public struct Configuration: Sendable {
        /// The phrase that wakes the assistant; "hey glasses" by default.
        public var wakePhrase: WakePhrase
        /// How long after a wake phrase said alone the next utterance is taken as the command, in
        /// seconds of audio.
        public var commandWindow: Double
        /// The commands understood.
        public var grammar: AIIntentGrammar
        /// The spoken language (the offline recognizers know English).
        public var language: String

        /// "hey glasses", a 5 s window, the standard grammar, English.
        public init(
            wakePhrase: WakePhrase = WakePhrase("hey glasses")!, commandWindow: Double = 5,
            grammar: AIIntentGrammar = .standard, language: String = "en"
        ) {
            self.wakePhrase = wakePhrase
            self.commandWindow = commandWindow
            self.grammar = grammar
            self.language = language
        }
    }

    /// What it listens for.
    public let configuration: Configuration
    /// The recognizer: the offline provider (Moonshine when installed, else PocketSphinx) unless
    /// another is given.
    public let recognizer: any AIConnectSDK

    /// A listener with `configuration`, recognizing with `recognizer`.
    public init(configuration: Configuration = Configuration(), recognizer: any AIConnectSDK = OfflineAIProvider()) {
        self.configuration = configuration
        self.recognizer = recognizer
    }

    /// Listens to `source` until it ends or the iteration stops; each wake, command and utterance
    /// is an event. Throws what the recognition session fails with.
    public func events(from source: any AIAudioSource) -> AsyncThrowingStream<VoiceAssistantEvent, any Error> {
        let (stream, output) = AsyncThrowingStream.makeStream(of: VoiceAssistantEvent.self, throwing: (any Error).self)
        let task = Task { [self] in
            do {
                let session = try await AIBudsAISDK.startStreamingASR(
                    parameters: AISessionParameters(language: configuration.language, endOfUtteranceSilence: 0.5, maxUtteranceDuration: 8),
                    source: source, using: recognizer)
                try await withTaskCancellationHandler {
                    var state = ListenState()
                    output.yield(.listening)
                    for await event in session.events {
                        for out in state.handle(event, configuration) { output.yield(out) }
                    }
                    _ = try await session.result()
                } onCancel: {
                    session.cancel()
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

/// The listener's memory between utterances: whether the wake phrase was heard and until when a
/// command may follow.
struct ListenState {
    private var wokenInUtterance: Int?
    private var awaitingCommandUntil: Double?
    /// Where the last speech heard started, and where each ended utterance started, by index: the
    /// session reports these as it hears them, ahead of the transcripts when the audio comes faster
    /// than it is transcribed.
    private var lastSpeechStart = 0.0
    private var utteranceStarts: [Int: Double] = [:]

    /// The events of one session event.
    mutating func handle(_ event: AISessionEvent, _ configuration: VoiceCommandListener.Configuration) -> [VoiceAssistantEvent] {
        switch event {
        case .speechStarted(let at):
            lastSpeechStart = at
            return []
        case .speechEnded(let span):
            utteranceStarts[span.index] = span.start
            return []
        case .partialTranscript(let index, let text):
            // The wake phrase is announced as soon as it is heard; the command waits for the end.
            guard wokenInUtterance != index, configuration.wakePhrase.command(in: text) != nil else { return [] }
            wokenInUtterance = index
            // An utterance not ended yet is the speech heard last.
            return [.wake(at: utteranceStarts[index] ?? lastSpeechStart)]
        case .transcript(let span, let transcript):
            utteranceStarts[span.index] = nil
            return finalTranscript(span, transcript.text, configuration)
        default:
            return []
        }
    }

    private mutating func finalTranscript(
        _ span: AIUtteranceSpan, _ text: String, _ configuration: VoiceCommandListener.Configuration
    ) -> [VoiceAssistantEvent] {
        var events: [VoiceAssistantEvent] = [.heard(text: text, at: span.end)]
        let commandWords: [String]
        if let afterWake = configuration.wakePhrase.command(in: text) {
            if wokenInUtterance != span.index { events.append(.wake(at: span.start)) }
            guard !afterWake.isEmpty else {
                awaitingCommandUntil = span.end + configuration.commandWindow
                return events
            }
            commandWords = afterWake
        } else if let until = awaitingCommandUntil, span.start <= until {
            commandWords = AIIntentGrammar.words(of: text)
        } else {
            awaitingCommandUntil = nil
            return events
        }
        awaitingCommandUntil = nil
        let said = commandWords.joined(separator: " ")
        let intent = configuration.grammar.intent(for: said)
        events.append(intent.action == .none ? .notUnderstood(text: said) : .command(intent, text: said))
        return events
    }
}
