import AIBudsAIFoundation
import AIBudsAudio
import AIBudsFoundation
import AIBudsHTTPClient
import AIBudsLog
import AIBudsSync
import Foundation

/// Where an OpenAI-compatible provider sends each kind of request, and with which models.
///
/// Each base URL ends in `/v1` (`https://api.openai.com/v1`, `http://127.0.0.1:8080/v1`); chat,
/// transcription and speech may be three different servers (llama.cpp's, a Whisper server, a TTS
/// server) or one. A missing URL leaves that capability out.
public struct OpenAICompatibleConfiguration: Sendable, Equatable {
    /// Base URL of `/chat/completions` (chat, and translation and summary through chat).
    public var chatBaseURL: String?
    /// Base URL of `/audio/transcriptions`.
    public var transcriptionBaseURL: String?
    /// Base URL of `/audio/speech`.
    public var speechBaseURL: String?
    /// Sent as `Authorization: Bearer ...` when set.
    public var apiKey: String?
    /// The chat model's name.
    public var chatModel: String
    /// The transcription model's name.
    public var transcriptionModel: String
    /// The speech model's name.
    public var speechModel: String
    /// The speech voice used when a call names none.
    public var defaultVoice: String
    /// The longest a request may take, in seconds; the server may take all of it before its first
    /// byte (a long transcription, a queue), but once it answers, 30 s without a byte ends the
    /// request.
    public var timeout: Double

    /// Makes a configuration; OpenAI's own model names by default.
    public init(
        chatBaseURL: String? = nil, transcriptionBaseURL: String? = nil, speechBaseURL: String? = nil,
        apiKey: String? = nil, chatModel: String = "gpt-4o-mini", transcriptionModel: String = "whisper-1",
        speechModel: String = "tts-1", defaultVoice: String = "alloy", timeout: Double = 120
    ) {
        self.chatBaseURL = chatBaseURL
        self.transcriptionBaseURL = transcriptionBaseURL
        self.speechBaseURL = speechBaseURL
        self.apiKey = apiKey
        self.chatModel = chatModel
        self.transcriptionModel = transcriptionModel
        self.speechModel = speechModel
        self.defaultVoice = defaultVoice
        self.timeout = timeout
    }

    /// Reads `AIBUDS_AI_CHAT_URL`, `AIBUDS_AI_TRANSCRIBE_URL`, `AIBUDS_AI_SPEECH_URL`,
    /// `AIBUDS_AI_CHAT_MODEL` and `OPENAI_API_KEY` (what `scripts/ai-servers.sh start` writes);
    /// `AIBUDS_AI_BASE_URL` stands for any of the three URLs not set.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Self {
        let base = environment["AIBUDS_AI_BASE_URL"]
        var configuration = OpenAICompatibleConfiguration(
            chatBaseURL: environment["AIBUDS_AI_CHAT_URL"] ?? base,
            transcriptionBaseURL: environment["AIBUDS_AI_TRANSCRIBE_URL"] ?? base,
            speechBaseURL: environment["AIBUDS_AI_SPEECH_URL"] ?? base,
            apiKey: environment["OPENAI_API_KEY"])
        if let model = environment["AIBUDS_AI_CHAT_MODEL"] { configuration.chatModel = model }
        return configuration
    }
}

/// The AI provider for any server that speaks OpenAI's HTTP API: chat completions streamed as
/// server-sent events, `/audio/transcriptions` and `/audio/speech`; translation and summaries
/// are chat requests with instructions. Requests go through libcurl (HTTP and HTTPS).
///
/// Its `providerName` is `openai`; it serves no vendor of `AIServiceVendor`
/// (`AIBudsAISDK.setAIProvider(named: "openai")`).
public final class OpenAICompatibleProvider: AIConnectSDK {
    /// Where requests go.
    public let configuration: OpenAICompatibleConfiguration

    /// Which form of `response_format` the chat server takes for intents, once a request found out.
    let intentFormat = Locked<IntentResponseFormat?>(nil)

    /// A provider sending its requests where `configuration` says; nothing connects until a call.
    /// Makes a provider; its API key is registered with the log redactor at once, so no log line
    /// and no error message of the SDK shows it, whatever a server echoes back.
    public init(configuration: OpenAICompatibleConfiguration) {
        self.configuration = configuration
        if let key = configuration.apiKey { LogRedactor.shared.register(key) }
    }

    /// `openai`.
    public var providerName: String { "openai" }
    /// `.none`: chosen by name.
    public var vendor: AIServiceVendor { .none }
    /// What the configured URLs allow.
    public var capabilities: AICapabilities {
        var set: AICapabilities = []
        if configuration.chatBaseURL != nil { set.formUnion([.chat, .translation, .summary, .intents]) }
        if configuration.transcriptionBaseURL != nil { set.insert(.transcription) }
        if configuration.speechBaseURL != nil { set.insert(.speech) }
        return set
    }

    // MARK: Chat

    /// Streams the reply from `/chat/completions` with `stream: true`, token by token.
    public func streamChat(_ messages: [AIChatMessage], options: AIChatOptions) -> AsyncThrowingStream<String, any Error> {
        let body = ChatRequest(model: configuration.chatModel, messages: messages, stream: true,
                               max_tokens: options.maxTokens, temperature: options.temperature)
        return streamCompletion { try JSONEncoder().encode(body) }
    }

    /// Posts the chat-completions request that `body` encodes (with `stream: true`) and streams the
    /// reply's text pieces: what ``streamChat(_:options:)`` and the intents share.
    func streamCompletion(_ body: @escaping @Sendable () throws -> Data) -> AsyncThrowingStream<String, any Error> {
        let (stream, output) = AsyncThrowingStream.makeStream(of: String.self, throwing: (any Error).self)
        let cancel = CancelFlag()
        output.onTermination = { _ in cancel.raise() }
        guard let base = configuration.chatBaseURL else {
            output.finish(throwing: AIError(.capabilityUnsupported, "no chat URL is configured"))
            return stream
        }
        let url = base + "/chat/completions"
        let headers = authHeaders
        let timeout = configuration.timeout
        Thread.detachNewThread {
            do {
                let json = try body()
                var parser = ServerSentEvents()
                var errorBody = Data()
                // Events that were chat chunks (or the closing [DONE]): a 200 with none is no chat answer.
                var chunks = 0
                let status = try Self.perform(
                    url: url, headers: headers + ["Accept: text/event-stream"], json: json, form: nil, timeout: timeout,
                    cancelled: { cancel.isRaised }
                ) { data in
                    errorBody.append(data.prefix(max(0, 4096 - errorBody.count)))
                    do {
                        for event in try parser.feed(data) {
                            if event == "[DONE]" { chunks += 1; continue }
                            guard let chunk = ChatChunk.decode(event) else { continue }
                            chunks += 1
                            if let token = chunk.token { output.yield(token) }
                        }
                    } catch {
                        return AIError.from(error)
                    }
                    return nil
                }
                guard (200..<300).contains(status) else { throw Self.httpError(status, errorBody, url) }
                guard chunks > 0 else {
                    throw AIError(.invalidResponse, "\(url) answered HTTP \(status) without a chat completion stream: \(Self.excerpt(errorBody))")
                }
                output.finish()
            } catch {
                output.finish(throwing: error)
            }
        }
        return stream
    }

    /// Asks the chat model for a translation only.
    public func translate(_ text: String, from source: String, to target: String) async throws -> String {
        let instruction = "Translate the user's text from \(Self.languageName(source)) to \(Self.languageName(target)). "
            + "Reply with the translation only."
        return try await complete([
            AIChatMessage(role: .system, content: instruction), AIChatMessage(role: .user, content: text),
        ])
    }

    /// Asks the chat model for a summary of two or three sentences.
    public func summarize(_ text: String, language: String) async throws -> String {
        let instruction = "Summarize the user's text in two or three short sentences in \(Self.languageName(language))."
        return try await complete([
            AIChatMessage(role: .system, content: instruction), AIChatMessage(role: .user, content: text),
        ])
    }

    private func complete(_ messages: [AIChatMessage]) async throws -> String {
        var text = ""
        for try await token in streamChat(messages, options: AIChatOptions(maxTokens: 160)) { text += token }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    // MARK: Audio

    /// Posts the audio as a WAV file to `/audio/transcriptions`.
    public func transcribe(_ audio: PCMAudio, language: String?) async throws -> AITranscript {
        guard let base = configuration.transcriptionBaseURL else {
            throw AIError(.capabilityUnsupported, "no transcription URL is configured")
        }
        let wav: Data
        do { wav = try WAVFile.encode(audio) } catch { throw AIError(.invalidParameters, "\(error)", underlying: error) }
        var form = [
            HTTPFormPart(name: "file", data: wav, filename: "speech.wav", contentType: "audio/wav"),
            HTTPFormPart(name: "model", data: Data(configuration.transcriptionModel.utf8)),
            HTTPFormPart(name: "response_format", data: Data("json".utf8)),
        ]
        if let language { form.append(HTTPFormPart(name: "language", data: Data(language.utf8))) }
        let answer = try await request(base + "/audio/transcriptions", json: nil, form: form, limit: Self.transcriptionAnswerLimit)
        guard let decoded = try? JSONDecoder().decode(TranscriptionResponse.self, from: answer) else {
            throw AIError(.invalidResponse, "the transcription answer has no text: \(Self.excerpt(answer))")
        }
        return AITranscript(text: decoded.text.trimmingCharacters(in: .whitespacesAndNewlines), language: decoded.language ?? language)
    }

    /// Posts the text to `/audio/speech` and reads the WAV answer.
    public func synthesize(_ text: String, language: String, voice: String?) async throws -> PCMAudio {
        guard let base = configuration.speechBaseURL else {
            throw AIError(.capabilityUnsupported, "no speech URL is configured")
        }
        let body = SpeechRequest(model: configuration.speechModel, input: text, voice: voice ?? configuration.defaultVoice,
                                 response_format: "wav")
        let answer = try await request(base + "/audio/speech", json: try JSONEncoder().encode(body), form: nil, limit: Self.speechAnswerLimit)
        do {
            return try WAVFile.decode(answer)
        } catch {
            throw AIError(.invalidResponse, "the speech answer is not a WAV file: \(error)", underlying: error)
        }
    }

    // MARK: HTTP

    var authHeaders: [String] {
        configuration.apiKey.map { ["Authorization: Bearer \($0)"] } ?? []
    }

    /// The most a transcription answer (JSON text) may hold.
    static let transcriptionAnswerLimit = 1 << 20
    /// The most a speech answer may hold: 64 MiB, about 23 minutes of 24 kHz 16-bit mono WAV.
    static let speechAnswerLimit = 64 << 20

    /// Posts to `url` and returns the answer's body, at most `limit` bytes (a larger answer, or an
    /// error body of any size, is cut off there and refused).
    func request(_ url: String, json: Data?, form: [HTTPFormPart]?, limit: Int) async throws -> Data {
        let headers = authHeaders
        let timeout = configuration.timeout
        return try await runOnOwnThread(name: "aibuds-openai") { cancel in
            let body = LockedData(limit: limit)
            let status = try Self.perform(
                url: url, headers: headers, json: json, form: form, timeout: timeout, cancelled: { cancel.isRaised }
            ) { body.append($0) }
            guard (200..<300).contains(status) else { throw Self.httpError(status, body.data, url) }
            return body.data
        }
    }

    /// One POST through the project's HTTP client: `json` or `form` as the body, the answer's bytes
    /// to `onData` (which may refuse the rest with an `AIError`), at most `timeout` seconds in all;
    /// returns the status. Transport failures are `AIError`s: unreachable, timeout, cancelled.
    static func perform(
        url: String, headers: [String], json: Data?, form: [HTTPFormPart]?, timeout: Double,
        cancelled: @escaping @Sendable () -> Bool, onData: @escaping (Data) -> AIError?
    ) throws -> Int {
        var lines = headers
        let body: HTTPClientRequest.Body
        if let form {
            body = .form(form)
        } else {
            lines.append("Content-Type: application/json")
            body = .bytes(json ?? Data())
        }
        // The server may work on the request for as long as the whole timeout allows before its
        // first byte (a long file transcribed, speech synthesized, a queue); once it answers, 30 s
        // without a byte is a stall.
        let whole = Duration.milliseconds(Int64(timeout * 1000))
        let request = HTTPClientRequest(
            "POST", url: url, headers: lines, body: body, stallTimeout: .seconds(30), firstByteTimeout: whole, totalTimeout: whole)
        do {
            return try client.perform(request, cancelled: cancelled) { onData($0) }.status
        } catch let error as HTTPClientError {
            switch error.code {
            case .unreachable: throw AIError(.serverUnreachable, error.message)
            case .timeout: throw AIError(.timeout, error.message)
            case .canceled: throw AIError(.canceled)
            case .refused: throw AIError(.invalidResponse, error.message)
            case .transport: throw AIError(.serverUnreachable, error.message)
            }
        }
    }

    /// The process's HTTP client for the provider's requests (its handles and connections are kept).
    private static let client = HTTPClient()

    static func httpError(_ status: Int, _ body: Data, _ url: String) -> AIError {
        let message = LogRedactor.shared.redact((try? JSONDecoder().decode(ErrorResponse.self, from: body))?.message ?? excerpt(body))
        return AIError(.serverError, "\(url) answered HTTP \(status): \(message)", httpStatus: status)
    }

    /// The start of an answer for an error message, with registered secrets (the API key a server
    /// may echo) redacted.
    static func excerpt(_ data: Data) -> String {
        LogRedactor.shared.redact(String(decoding: data.prefix(200), as: UTF8.self).replacingOccurrences(of: "\n", with: " "))
    }

    /// The English name of a BCP 47 language code, for instructions to a chat model.
    static func languageName(_ code: String) -> String {
        Locale(identifier: "en").localizedString(forLanguageCode: code) ?? code
    }
}
