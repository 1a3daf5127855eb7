/// Who said a chat message.
public enum AIChatRole: String, Sendable, Codable {
    /// Instructions for the assistant.
    case system
    /// The wearer.
    case user
    /// The assistant's earlier replies.
    case assistant
}

/// One message of a conversation sent to a chat model.
public struct AIChatMessage: Sendable, Codable, Equatable {
    /// Who said it.
    public var role: AIChatRole
    /// What was said.
    public var content: String

    /// A message from `role` saying `content`.
    public init(role: AIChatRole, content: String) {
        self.role = role
        self.content = content
    }
}

/// Generation settings for a chat reply.
public struct AIChatOptions: Sendable, Codable, Equatable {
    /// The most tokens the reply may have.
    public var maxTokens: Int
    /// Sampling temperature; 0 picks the likeliest token each time (repeatable replies).
    public var temperature: Double

    /// Short, repeatable replies by default: a spoken answer should be brief.
    public init(maxTokens: Int = 96, temperature: Double = 0) {
        self.maxTokens = maxTokens
        self.temperature = temperature
    }
}

/// A transcript of some speech.
public struct AITranscript: Sendable, Codable, Equatable {
    /// The recognized text, trimmed.
    public var text: String
    /// The language the engine heard or was told (BCP 47), when it says.
    public var language: String?

    /// A transcript of `text`; `language` when the engine said which it heard.
    public init(text: String, language: String? = nil) {
        self.text = text
        self.language = language
    }

    /// The transcript's words, lowercased, without punctuation: what tests and searches compare.
    public var words: [String] {
        text.lowercased().split { !$0.isLetter && !$0.isNumber && $0 != "'" }.map(String.init)
    }
}
