import AIBudsSync
import AIBudsAIFoundation
import AIBudsAudio
import AIBudsFoundation

/// The AI provider that needs no server and no network: speech by libespeak-ng, translation by
/// Apertium, transcription by PocketSphinx, and an extractive summary, all on this machine.
///
/// It has no chat (no language model runs in-process); its quality is that of its engines:
/// espeak-ng's voice is robotic but clear, Apertium translates simple sentences well and idioms
/// word by word, PocketSphinx misses many words that Whisper gets, and the summary picks sentences
/// rather than writing new ones. `providerName` is `offline`; it serves no vendor.
public final class OfflineAIProvider: AIConnectSDK {
    /// Makes the provider; engines load on first use.
    public init() {}

    /// `offline`, the name `setAIProvider(named:)` selects it by.
    public var providerName: String { "offline" }
    /// `.none`: chosen by name.
    public var vendor: AIServiceVendor { .none }
    /// Transcription, speech, translation and summary; no chat.
    public var capabilities: AICapabilities { [.transcription, .speech, .translation, .summary] }

    /// PocketSphinx, US English only.
    public func transcribe(_ audio: PCMAudio, language: String?) async throws -> AITranscript {
        if let language, !language.lowercased().hasPrefix("en") {
            throw AIError(.invalidParameters, "the offline transcription knows English only, not '\(language)'")
        }
        let speech: PCMAudio
        do { speech = try audio.speechFormat() } catch { throw AIError(.invalidParameters, "\(error)", underlying: error) }
        let text = try await runOnOwnThread(name: "aibuds-pocketsphinx") { _ in try PocketSphinxRecognizer.transcribe(speech) }
        return AITranscript(text: text, language: "en")
    }

    /// espeak-ng's voice for `language`; `voice` (an espeak-ng voice name such as `en-us`) wins when given.
    public func synthesize(_ text: String, language: String, voice: String?) async throws -> PCMAudio {
        try await runOnOwnThread(name: "aibuds-espeak") { _ in try EspeakSynthesizer.synthesize(text, language: voice ?? language) }
    }

    /// Apertium's pair for `source`→`target`.
    public func translate(_ text: String, from source: String, to target: String) async throws -> String {
        try await runOnOwnThread(name: "aibuds-apertium") { _ in try ApertiumTranslator.translate(text, from: source, to: target) }
    }

    /// The two most representative sentences.
    public func summarize(_ text: String, language: String) async throws -> String {
        ExtractiveSummarizer.summarize(text)
    }
}
