import AIBudsSync
import AIBudsAIFoundation
import AIBudsAudio
import AIBudsFoundation

/// The AI provider that needs no server and no network: speech by libespeak-ng, translation by
/// Apertium, transcription by Moonshine (``MoonshineRecognizer``, when `scripts/asr-model.sh` has
/// installed it; else PocketSphinx), and an extractive summary, all on this machine.
///
/// It has no chat (no language model runs in-process); its quality is that of its engines:
/// espeak-ng's voice is robotic but clear, Apertium translates simple sentences well and idioms
/// word by word, Moonshine transcribes English about as well as Whisper's small models
/// (PocketSphinx misses many words; docs/benchmarks.md has both on the same speech), and the
/// summary picks sentences rather than writing new ones. `providerName` is `offline`; it serves
/// no vendor.
public final class OfflineAIProvider: AIConnectSDK {
    /// Which engine transcribes.
    public enum Recognizer: String, Sendable, CaseIterable {
        /// Moonshine when it is installed, else PocketSphinx.
        case automatic
        /// Moonshine base through ONNX Runtime; an error when it is not installed.
        case moonshine
        /// PocketSphinx with its US English model (Debian's pocketsphinx-en-us).
        case pocketSphinx
    }

    /// The engine asked for.
    public let recognizer: Recognizer
    private let moonshine = Locked<Result<MoonshineRecognizer, AIError>?>(nil)

    /// Makes the provider transcribing with `recognizer`; engines load on first use.
    public init(recognizer: Recognizer = .automatic) {
        self.recognizer = recognizer
    }

    /// The engine a transcription uses now: Moonshine or PocketSphinx.
    public var activeRecognizer: Recognizer {
        switch recognizer {
        case .automatic: MoonshineRecognizer.isInstalled ? .moonshine : .pocketSphinx
        case .moonshine, .pocketSphinx: recognizer
        }
    }

    /// `offline`, the name `setAIProvider(named:)` selects it by.
    public var providerName: String { "offline" }
    /// `.none`: chosen by name.
    public var vendor: AIServiceVendor { .none }
    /// Transcription, speech, translation, summary and intents; no chat.
    public var capabilities: AICapabilities { [.transcription, .speech, .translation, .summary, .intents] }

    /// Moonshine or PocketSphinx (``activeRecognizer``), English only.
    public func transcribe(_ audio: PCMAudio, language: String?) async throws -> AITranscript {
        if let language, !language.lowercased().hasPrefix("en") {
            throw AIError(.invalidParameters, "the offline transcription knows English only, not '\(language)'")
        }
        let speech: PCMAudio
        do { speech = try audio.speechFormat() } catch { throw AIError(.invalidParameters, "\(error)", underlying: error) }
        if activeRecognizer == .moonshine {
            let engine = try loadMoonshine()
            let text = try await runOnOwnThread(name: "aibuds-moonshine") { _ in try engine.transcribe(speech) }
            return AITranscript(text: text, language: "en")
        }
        let text = try await runOnOwnThread(name: "aibuds-pocketsphinx") { _ in try PocketSphinxRecognizer.transcribe(speech) }
        return AITranscript(text: text, language: "en")
    }

    /// Loads Moonshine (about a second) when it is the active recognizer.
    public func prepare() async throws {
        guard activeRecognizer == .moonshine else { return }
        _ = try await runOnOwnThread(name: "aibuds-moonshine") { _ in try self.loadMoonshine() }
    }

    /// The Moonshine recognizer, loaded once (a failure is kept and thrown again).
    private func loadMoonshine() throws -> MoonshineRecognizer {
        try moonshine.withLock { loaded in
            if loaded == nil {
                loaded = Result { try MoonshineRecognizer() }.mapError { $0 as? AIError ?? AIError(.engineFailed, "\($0)") }
            }
            return try loaded!.get()
        }
    }

    /// espeak-ng's voice for `language`; `voice` (an espeak-ng voice name such as `en-us`) wins when given.
    public func synthesize(_ text: String, language: String, voice: String?) async throws -> PCMAudio {
        try await runOnOwnThread(name: "aibuds-espeak") { _ in try EspeakSynthesizer.synthesize(text, language: voice ?? language) }
    }

    /// Apertium's pair for `source`→`target`.
    public func translate(_ text: String, from source: String, to target: String) async throws -> String {
        try await runOnOwnThread(name: "aibuds-apertium") { _ in try ApertiumTranslator.translate(text, from: source, to: target) }
    }

    /// The intent by the standard grammar (``/AIBudsAIFoundation/AIIntentGrammar/standard``),
    /// English only.
    public func recognizeIntent(_ utterance: String, language: String) async throws -> AIIntent {
        guard language.lowercased().hasPrefix("en") else {
            throw AIError(.invalidParameters, "the offline intent grammar knows English only, not '\(language)'")
        }
        return AIIntentGrammar.standard.intent(for: utterance)
    }

    /// The two most representative sentences.
    public func summarize(_ text: String, language: String) async throws -> String {
        ExtractiveSummarizer.summarize(text)
    }
}
