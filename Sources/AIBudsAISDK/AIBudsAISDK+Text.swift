import AIBudsAIFoundation
import AIBudsAudio
import Foundation

/// A text result (translation, summary), or the error (domain `AIBudsAISDK.ErrorDomain`).
public typealias AIBudsAITextCompletionHandler = @Sendable (_ text: String?, _ error: NSError?) -> Void
/// A transcript, or the error.
public typealias AIBudsAITranscriptCompletionHandler = @Sendable (_ transcript: AITranscript?, _ error: NSError?) -> Void
/// An utterance's intent, or the error.
public typealias AIBudsAIIntentCompletionHandler = @Sendable (_ intent: AIIntent?, _ error: NSError?) -> Void
/// The file written, or the error.
public typealias AIBudsAIFileCompletionHandler = @Sendable (_ file: URL?, _ error: NSError?) -> Void

extension AIBudsAISDK {
    /// Translates `text` from `source` into `target` (BCP 47 codes such as `en`, `es`) with the
    /// selected provider.
    public static func translateText(_ text: String, from source: String, to target: String) async throws -> String {
        try requireText(text)
        return try await mapped { try await provider(for: .translation).translate(text, from: source, to: target) }
    }

    /// Summarizes `text` (a transcript, notes) in a few sentences with the selected provider.
    public static func summary(_ text: String, language: String = "en") async throws -> String {
        try requireText(text)
        return try await mapped { try await provider(for: .summary).summarize(text, language: language) }
    }

    /// The intent of `utterance` (the wiki's "AI Intents"): what the wearer asks the glasses to do,
    /// with its slots, by the selected provider (the offline one by its grammar, the
    /// OpenAI-compatible one by a chat model whose answer follows ``/AIBudsAIFoundation/AIIntent/jsonSchema``).
    public static func recognizeIntent(_ utterance: String, language: String = "en") async throws -> AIIntent {
        try requireText(utterance)
        return try await mapped { try await provider(for: .intents).recognizeIntent(utterance, language: language) }
    }

    /// Transcribes the speech in a WAV file (any rate, mono or stereo).
    public static func recognizeVoice(fileURL: URL, language: String? = "en") async throws -> AITranscript {
        let audio: PCMAudio
        do {
            audio = try WAVFile.read(from: fileURL)
        } catch {
            throw AIError(.invalidParameters, "\(fileURL.path) is not a readable WAV file: \(error)", underlying: error)
        }
        return try await recognizeVoice(audio, language: language)
    }

    /// Transcribes speech already in memory.
    public static func recognizeVoice(_ audio: PCMAudio, language: String? = "en") async throws -> AITranscript {
        let speech = try SpeechFormat.convert(audio)
        return try await mapped { try await provider(for: .transcription).transcribe(speech, language: language) }
    }

    /// Speaks `text` with the selected provider; the audio is at the provider's own rate.
    public static func synthesizeText(_ text: String, language: String = "en", voice: String? = nil) async throws -> PCMAudio {
        try requireText(text)
        return try await mapped { try await provider(for: .speech).synthesize(text, language: language, voice: voice) }
    }

    /// Speaks `text` into a WAV file at `url` (replacing it) and returns `url`.
    @discardableResult
    public static func synthesizeText(_ text: String, language: String = "en", voice: String? = nil, to url: URL) async throws -> URL {
        let audio = try await synthesizeText(text, language: language, voice: voice)
        do {
            try WAVFile.write(audio, to: url)
        } catch {
            throw AIError(.fileError, "cannot write \(url.path): \(error)", underlying: error)
        }
        return url
    }

    // MARK: Completion-handler forms (the vendor's style; called on `callbackQueue`)

    /// `translateText(_:from:to:)` with a completion handler.
    public static func translateText(
        _ text: String, from source: String, to target: String, completion: @escaping AIBudsAITextCompletionHandler
    ) {
        deliver(completion) { try await translateText(text, from: source, to: target) }
    }

    /// `summary(_:language:)` with a completion handler.
    public static func summary(_ text: String, language: String = "en", completion: @escaping AIBudsAITextCompletionHandler) {
        deliver(completion) { try await summary(text, language: language) }
    }

    /// `recognizeIntent(_:language:)` with a completion handler.
    public static func recognizeIntent(_ utterance: String, language: String = "en", completion: @escaping AIBudsAIIntentCompletionHandler) {
        deliver(completion) { try await recognizeIntent(utterance, language: language) }
    }

    /// `recognizeVoice(fileURL:language:)` with a completion handler.
    public static func recognizeVoice(
        fileURL: URL, language: String? = "en", completion: @escaping AIBudsAITranscriptCompletionHandler
    ) {
        deliver(completion) { try await recognizeVoice(fileURL: fileURL, language: language) }
    }

    /// `synthesizeText(_:language:voice:to:)` with a completion handler.
    public static func synthesizeText(
        _ text: String, language: String = "en", voice: String? = nil, to url: URL,
        completion: @escaping AIBudsAIFileCompletionHandler
    ) {
        deliver(completion) { try await synthesizeText(text, language: language, voice: voice, to: url) }
    }

    private static func deliver<Value: Sendable>(
        _ completion: @escaping @Sendable (Value?, NSError?) -> Void, _ work: @escaping @Sendable () async throws -> Value
    ) {
        Task {
            do {
                let value = try await work()
                callbackQueue.async { completion(value, nil) }
            } catch {
                let error = AIError.from(error) as NSError
                callbackQueue.async { completion(nil, error) }
            }
        }
    }

    /// `work`'s value, or its error as an `AIError` (a vendor plugin's own errors become
    /// `engineFailed` with theirs underneath): the one place the text calls map errors, so the
    /// async forms throw what the completion forms deliver.
    private static func mapped<Value: Sendable>(_ work: () async throws -> Value) async throws(AIError) -> Value {
        do { return try await work() } catch { throw AIError.from(error) }
    }

    private static func requireText(_ text: String) throws {
        guard text.contains(where: { !$0.isWhitespace }) else { throw AIError(.invalidParameters, "the text is empty") }
    }
}
