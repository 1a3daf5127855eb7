import AIBudsAIFoundation
import AIBudsSync
import Foundation

/// How a chat server is told to answer with JSON that follows a schema: OpenAI's API takes
/// `{"type": "json_schema", "json_schema": {"name", "schema", "strict"}}`; llama-cpp-python's
/// server takes `{"type": "json_object", "schema": ...}` (both constrain the model's sampling to the
/// schema). The provider tries the first and falls back to the second when the server refuses it.
enum IntentResponseFormat: Sendable, CaseIterable {
    case jsonSchema
    case jsonObjectWithSchema

    func body(_ schema: Any) -> [String: Any] {
        switch self {
        case .jsonSchema: ["type": "json_schema", "json_schema": ["name": "intent", "schema": schema, "strict": true]]
        case .jsonObjectWithSchema: ["type": "json_object", "schema": schema]
        }
    }
}

extension OpenAICompatibleProvider {
    /// The most a chat answer for an intent may hold.
    static let intentAnswerLimit = 1 << 16

    /// Asks the chat model for the intent of `utterance`, its answer constrained to
    /// ``/AIBudsAIFoundation/AIIntent/jsonSchema`` (temperature 0, a few examples in the
    /// instructions). An answer that is no such JSON is `invalidResponse`.
    public func recognizeIntent(_ utterance: String, language: String) async throws -> AIIntent {
        guard let base = configuration.chatBaseURL else {
            throw AIError(.capabilityUnsupported, "no chat URL is configured")
        }
        let url = base + "/chat/completions"
        let known = intentFormat.withLock { $0 }
        var lastError: AIError?
        for format in known.map({ [$0] }) ?? IntentResponseFormat.allCases {
            var answer = ""
            do {
                let model = configuration.chatModel
                for try await piece in streamCompletion({ try Self.intentRequest(utterance, model: model, format: format) }) {
                    answer += piece
                    guard answer.utf8.count <= Self.intentAnswerLimit else {
                        throw AIError(.invalidResponse, "the chat model's intent went on past \(Self.intentAnswerLimit) bytes")
                    }
                }
            } catch let error as AIError where known == nil && Self.refusedFormat(error) {
                // This server does not take this form of response_format: try the other.
                lastError = error
                continue
            }
            intentFormat.withLock { $0 = format }
            return try Self.intent(from: answer, url: url)
        }
        throw lastError ?? AIError(.invalidResponse, "\(url) took no form of response_format")
    }

    /// Whether `error` is a server refusing the request's form of `response_format`: a 400 or 422,
    /// or any error status whose message names it (llama-cpp-python answers its validation errors
    /// with 500).
    static func refusedFormat(_ error: AIError) -> Bool {
        guard let status = error.httpStatus else { return false }
        return status == 400 || status == 422 || ((400..<600).contains(status) && error.message.contains("response_format"))
    }

    static func intentRequest(_ utterance: String, model: String, format: IntentResponseFormat) throws -> Data {
        let schema = try JSONSerialization.jsonObject(with: Data(AIIntent.jsonSchema.utf8))
        var messages: [[String: String]] = [["role": "system", "content": intentInstructions]]
        for (said, intent) in intentExamples {
            messages.append(["role": "user", "content": said])
            messages.append(["role": "assistant", "content": intent])
        }
        messages.append(["role": "user", "content": utterance])
        let body: [String: Any] = [
            "model": model, "messages": messages, "stream": true, "max_tokens": 96, "temperature": 0,
            "response_format": format.body(schema),
        ]
        return try JSONSerialization.data(withJSONObject: body)
    }

    static func intent(from content: String, url: String) throws -> AIIntent {
        do {
            return try JSONDecoder().decode(AIIntent.self, from: Data(content.utf8))
        } catch {
            throw AIError(.invalidResponse, "the chat model's answer is no intent: \(excerpt(Data(content.utf8)))", underlying: error)
        }
    }

    static let intentInstructions = """
        You turn what a wearer says to smart glasses into an intent, as JSON. The action is one of: \
        takePhoto, startVideo, stopRecording (a video or an audio recording), startAudioRecording, \
        volumeUp, volumeDown, setVolume (level 0-100), mute, play, pause, nextTrack, previousTrack, \
        navigate (place), stopNavigation, startTranslation (language, when said), stopTranslation, \
        translateText (text and language), ask (a question for the assistant, in text), \
        none (anything else). Answer with the JSON only.
        """

    static let intentExamples: [(String, String)] = [
        ("Could you snap a picture?", #"{"action":"takePhoto"}"#),
        ("Take me to the airport please", #"{"action":"navigate","place":"the airport"}"#),
        ("What is the capital of Peru?", #"{"action":"ask","text":"What is the capital of Peru?"}"#),
        ("The train was late again today.", #"{"action":"none"}"#),
    ]
}
