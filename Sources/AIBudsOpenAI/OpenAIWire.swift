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

    /// The chunk an event's JSON holds, or nil when it is not one.
    static func decode(_ event: String) -> ChatChunk? {
        try? JSONDecoder().decode(ChatChunk.self, from: Data(event.utf8))
    }

    /// The chunk's text piece, if it has one.
    var token: String? {
        guard let content = choices.first?.delta?.content, !content.isEmpty else { return nil }
        return content
    }
}

/// Server-sent events: bytes in, the `data:` payload of each complete event out. A line or an event
/// longer than ``maximumEventBytes`` is refused: a server that never ends a line, or never ends an
/// event with a blank line, cannot make this process grow without end.
struct ServerSentEvents {
    /// The longest line and the longest event accepted (a chat chunk is a few hundred bytes).
    static let maximumEventBytes = 1 << 20
    private var buffer = Data()
    private var dataLines: [String] = []
    private var eventBytes = 0

    /// Adds bytes; returns the events they completed.
    ///
    /// - Throws: `AIError.invalidResponse` when a line or an event exceeds ``maximumEventBytes``.
    mutating func feed(_ data: Data) throws(AIError) -> [String] {
        buffer.append(data)
        defer { if buffer.isEmpty { buffer = Data() } }
        var events: [String] = []
        while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
            var line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
            buffer.removeSubrange(buffer.startIndex...newline)
            if line.hasSuffix("\r") { line.removeLast() }
            if line.isEmpty {
                if !dataLines.isEmpty { events.append(dataLines.joined(separator: "\n")) }
                dataLines = []
                eventBytes = 0
            } else if line.hasPrefix("data:") {
                var value = line.dropFirst(5)
                if value.hasPrefix(" ") { value = value.dropFirst() }
                eventBytes += value.utf8.count + 1
                guard eventBytes <= Self.maximumEventBytes else {
                    throw AIError(.invalidResponse, "the server's event stream has an event over \(Self.maximumEventBytes) bytes")
                }
                dataLines.append(String(value))
            }
        }
        guard buffer.count <= Self.maximumEventBytes else {
            throw AIError(.invalidResponse, "the server's event stream has a line over \(Self.maximumEventBytes) bytes")
        }
        return events
    }
}

/// Bytes collected by a libcurl callback, read after the transfer, up to a limit.
final class LockedData: Sendable {
    private let storage = Locked(Data())
    private let limit: Int

    /// Collects at most `limit` bytes.
    init(limit: Int) {
        self.limit = limit
    }

    /// Appends bytes; refuses them (and the rest of the answer) past the limit.
    func append(_ data: Data) -> AIError? {
        storage.withLock { stored in
            guard stored.count + data.count <= limit else {
                return AIError(.invalidResponse, "the server's answer is larger than \(limit) bytes; it was not read further")
            }
            stored.append(data)
            return nil
        }
    }
    /// Everything appended.
    var data: Data { storage.withLock { $0 } }
}
