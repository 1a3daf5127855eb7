import AIBudsFoundation
import AIBudsPCM

/// What an AI provider can do; `AIBudsAISDK` checks it before it routes a call.
public struct AICapabilities: OptionSet, Sendable, Hashable {
    /// The option bits.
    public let rawValue: Int
    /// Creates a set from its bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Speech to text (`transcribe`).
    public static let transcription = AICapabilities(rawValue: 1 << 0)
    /// Chat replies streamed token by token (`streamChat`).
    public static let chat = AICapabilities(rawValue: 1 << 1)
    /// Text to speech (`synthesize`).
    public static let speech = AICapabilities(rawValue: 1 << 2)
    /// Text translation between languages (`translate`).
    public static let translation = AICapabilities(rawValue: 1 << 3)
    /// Summaries of text (`summarize`).
    public static let summary = AICapabilities(rawValue: 1 << 4)
    /// The intent of an utterance (`recognizeIntent`): an action for the glasses and its slots.
    public static let intents = AICapabilities(rawValue: 1 << 5)
}

/// An AI provider plugin, loaded with `AIBudsAISDK.initialize(aiSDKs:)`: it wraps one provider's
/// engines (a cloud API, local servers, in-process libraries) behind the calls the SDK's sessions
/// and text functions need.
///
/// A plugin for a vendor of `AIServiceVendor` (StarBurst, MltCloud) returns that vendor from
/// ``vendor`` and is chosen by `setAIServiceVendor(_:)`; the project's own providers return `.none`
/// and are chosen by name (`AIBudsAISDK.setAIProvider(named:)`). Every call is `async` and may be
/// called from any task; a call the provider does not offer throws `AIError(.capabilityUnsupported)`.
///
/// A vendor's plugin (StarBurst and MltCloud publish no API this SDK could call, so theirs is
/// theirs to write) declares what it offers and implements those calls; the rest keep the
/// defaults, which throw `capabilityUnsupported`:
///
/// ```swift
/// final class StarBurstPlugin: AIConnectSDK {
///     let providerName = "starburst"
///     let vendor = AIServiceVendor.starBurst
///     let capabilities: AICapabilities = [.chat, .translation]
///     func authorize(userId: String?, params: AIAuthParams?) async throws {
///         // exchange params?.starburst?.productId for the vendor's session
///     }
///     func streamChat(_ messages: [AIChatMessage], options: AIChatOptions) -> AsyncThrowingStream<String, any Error> {
///         // the vendor's streamed reply, one piece at a time
///     }
///     func translate(_ text: String, from source: String, to target: String) async throws -> String {
///         // the vendor's translation
///     }
/// }
/// try AIBudsAISDK.initialize(aiSDKs: [StarBurstPlugin()])
/// AIBudsAISDK.setAIServiceVendor(.starBurst)
/// ```
///
/// Errors a plugin throws reach the app as they are when they are `AIError`s; give the vendor's
/// own failures an `AIError` code (`serverError` with the vendor's message, say) so that apps
/// see one error domain.
public protocol AIConnectSDK: AnyObject, Sendable {
    /// The provider's short name, unique among registered plugins (`openai`, `offline`, ...).
    var providerName: String { get }
    /// The vendor this plugin serves, or `.none` for a provider chosen by name only.
    var vendor: AIServiceVendor { get }
    /// What the provider can do.
    var capabilities: AICapabilities { get }

    /// Receives the connection's AI credentials (`ConnectParams.aiAuthParams`) and end user; a
    /// provider that needs none ignores them.
    func authorize(userId: String?, params: AIAuthParams?) async throws
    /// Loads the provider's engines ahead of the first call (a recognizer's model), so that a
    /// session's first result is not late by the load; sessions call it as they start listening.
    func prepare() async throws
    /// Transcribes speech; `language` is a BCP 47 code such as `en`, or `nil` to detect it.
    func transcribe(_ audio: PCMAudio, language: String?) async throws -> AITranscript
    /// Streams the assistant's reply to `messages`, one text piece (token) at a time.
    func streamChat(_ messages: [AIChatMessage], options: AIChatOptions) -> AsyncThrowingStream<String, any Error>
    /// Speaks `text` in `language` (a BCP 47 code) with `voice` (provider-specific, `nil` for the default).
    func synthesize(_ text: String, language: String, voice: String?) async throws -> PCMAudio
    /// Translates `text` from `source` to `target` (BCP 47 codes such as `en`, `es`).
    func translate(_ text: String, from source: String, to target: String) async throws -> String
    /// Summarizes `text` (a transcript, an article) in a few sentences.
    func summarize(_ text: String, language: String) async throws -> String
    /// The intent of `utterance` (what the wearer asks the glasses to do), `AIIntentAction.none`
    /// when it asks for nothing they do.
    func recognizeIntent(_ utterance: String, language: String) async throws -> AIIntent
}

extension AIConnectSDK {
    /// Accepts any credentials: most providers need none beyond their own configuration.
    public func authorize(userId: String?, params: AIAuthParams?) async throws {}

    /// Nothing to load ahead: engines load on first use.
    public func prepare() async throws {}

    /// Throws `capabilityUnsupported`.
    public func transcribe(_ audio: PCMAudio, language: String?) async throws -> AITranscript {
        throw AIError(.capabilityUnsupported, "\(providerName) does not transcribe speech")
    }

    /// Fails with `capabilityUnsupported`.
    public func streamChat(_ messages: [AIChatMessage], options: AIChatOptions) -> AsyncThrowingStream<String, any Error> {
        let name = providerName
        return AsyncThrowingStream { $0.finish(throwing: AIError(.capabilityUnsupported, "\(name) does not chat")) }
    }

    /// Throws `capabilityUnsupported`.
    public func synthesize(_ text: String, language: String, voice: String?) async throws -> PCMAudio {
        throw AIError(.capabilityUnsupported, "\(providerName) does not synthesize speech")
    }

    /// Throws `capabilityUnsupported`.
    public func translate(_ text: String, from source: String, to target: String) async throws -> String {
        throw AIError(.capabilityUnsupported, "\(providerName) does not translate")
    }

    /// Throws `capabilityUnsupported`.
    public func recognizeIntent(_ utterance: String, language: String) async throws -> AIIntent {
        throw AIError(.capabilityUnsupported, "\(providerName) does not recognize intents")
    }

    /// Throws `capabilityUnsupported`.
    public func summarize(_ text: String, language: String) async throws -> String {
        throw AIError(.capabilityUnsupported, "\(providerName) does not summarize")
    }
}
