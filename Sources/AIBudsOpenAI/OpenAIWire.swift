import AIBudsAIFoundation
import AIBudsSync
import Foundation

/// The body of a chat-completions request.
struct ChatRequest: Encodable {
    var model: String
    var messages: [AIChatMessage]
    var stream: Bool
    var max_tokens: Int
    var temperature: Double
}

/// The body of a speech request.
struct SpeechRequest: Encodable {
    var model: String
    var input: String
    var voice: String
    var response_format: String
}

/// The answer of a transcription request.
struct TranscriptionResponse: Decodable {
    var text: String
    var language: String?
}

/// An OpenAI-style error answer: `{"error": {"message": ...}}` (or FastAPI's `{"detail": ...}`).
struct ErrorResponse: Decodable {
    var message: String

    private struct Inner: Decodable { var message: String }
    private enum Keys: String, CodingKey { case error, detail }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        if let inner = try? container.decode(Inner.self, forKey: .error) {
            message = inner.message
        } else if let inner = try? container.decode([String: Inner].self, forKey: .detail), let first = inner.values.first {
            message = first.message
        } else if let text = try? container.decode(String.self, forKey: .error) {
            message = text
        } else {
            message = try container.decode(String.self, forKey: .detail)
        }
    }
}

/// One streamed chat chunk: `{"choices": [{"delta": {"content": "..."}}]}`.
struct ChatChunk: Decodable {
    struct Choice: Decodable {
        struct Delta: Decodable { var content: String? }
        var delta: Delta?
    }
    var choices: [Choice]

    /// The text piece in a chunk's JSON, if it has one.
    static func token(in event: String) -> String? {
        guard let chunk = try? JSONDecoder().decode(ChatChunk.self, from: Data(event.utf8)) else { return nil }
        guard let content = chunk.choices.first?.delta?.content, !content.isEmpty else { return nil }
        return content
    }
}

/// Server-sent events: bytes in, the `data:` payload of each complete event out.
struct ServerSentEvents {
    private var buffer = Data()
    private var dataLines: [String] = []

    /// Adds bytes; returns the events they completed.
    mutating func feed(_ data: Data) -> [String] {
        buffer.append(data)
        var events: [String] = []
        while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
            var line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
            buffer.removeSubrange(buffer.startIndex...newline)
            if line.hasSuffix("\r") { line.removeLast() }
            if line.isEmpty {
                if !dataLines.isEmpty { events.append(dataLines.joined(separator: "\n")) }
                dataLines = []
            } else if line.hasPrefix("data:") {
                var value = line.dropFirst(5)
                if value.hasPrefix(" ") { value = value.dropFirst() }
                dataLines.append(String(value))
            }
        }
        return events
    }
}

/// Bytes collected by a libcurl callback, read after the transfer.
final class LockedData: Sendable {
    private let storage = Locked(Data())
    /// Appends bytes.
    func append(_ data: Data) { storage.withLock { $0.append(data) } }
    /// Everything appended.
    var data: Data { storage.withLock { $0 } }
}
