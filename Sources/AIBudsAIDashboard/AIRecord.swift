import Foundation

/// What kind of AI session a record describes.
public enum AIRecordKind: String, Codable, Hashable, Sendable, CaseIterable {
    /// An AI audio recording (the device records, the AI service transcribes or summarises).
    case aiRecording = "ai-recording"
    /// Simultaneous interpretation: speech in one language, replies in another.
    case simultaneousInterpretation = "interpretation"
    /// A spoken conversation with an AI assistant.
    case aiConversation = "conversation"
    /// Streaming speech recognition: what was said, transcribed as it was spoken.
    case transcription = "transcription"
    /// Conversation translation: two people, two languages, each turn translated for the other.
    case conversationTranslation = "conversation-translation"
}

/// The device a record was made with, as the dashboard shows it.
public struct AIRecordDevice: Codable, Hashable, Sendable {
    /// The device's stable identifier (the one filters match).
    public var identifier: String
    /// The name people see.
    public var name: String
    /// Anything else worth seeing (model, firmware, battery, transport), shown as a table.
    public var details: [String: String]

    /// A device description; `details` appear as name/value rows.
    public init(identifier: String, name: String, details: [String: String] = [:]) {
        self.identifier = identifier
        self.name = name
        self.details = details
    }
}

/// A record's state: running while the session lasts, then finished or failed.
public enum AIRecordStatus: String, Codable, Hashable, Sendable {
    /// The session is still going; updates arrive live.
    case running
    /// The session ended normally.
    case finished
    /// The session ended because of an error.
    case failed
}

/// One entry of a record's timeline.
public struct AIRecordEntry: Codable, Hashable, Sendable {
    /// What the entry is, which decides how the page shows it.
    public enum Kind: String, Codable, Hashable, Sendable {
        /// A session event (connected, listening, stopped, ...).
        case event
        /// A key error, highlighted on the page.
        case error
        /// Text recognised from the wearer's speech.
        case transcript
        /// The AI's answer (or the interpretation).
        case reply
    }

    /// When it happened.
    public var time: Date
    /// Event, error, transcript or reply: decides its colour and label on the page.
    public var kind: Kind
    /// Its text (event name, error message, transcript, reply).
    public var text: String
    /// More about it (error code, event details, language), possibly empty.
    public var detail: String

    /// An entry of `kind` with `text` (and `detail`, empty by default) stamped `time`, now by default.
    public init(time: Date = Date(), kind: Kind, text: String, detail: String = "") {
        self.time = time
        self.kind = kind
        self.text = text
        self.detail = detail
    }
}

/// A record as the list shows it.
public struct AIRecordSummary: Codable, Hashable, Sendable {
    /// The record's number, unique in its store.
    public var id: Int64
    /// What kind of session it is.
    public var kind: AIRecordKind
    /// The device's identifier.
    public var deviceIdentifier: String
    /// The device's name.
    public var deviceName: String
    /// When the session started.
    public var startedAt: Date
    /// When it ended (nil while running).
    public var endedAt: Date?
    /// Running, finished or failed.
    public var status: AIRecordStatus
    /// How many errors its timeline has.
    public var errorCount: Int
    /// Seconds of audio stored.
    public var audioSeconds: Double
}

/// A record with everything its page shows.
public struct AIRecordDetail: Codable, Hashable, Sendable {
    /// The list's view of it.
    public var summary: AIRecordSummary
    /// The device the session ran on, with every detail it reported.
    public var device: AIRecordDevice
    /// The parameters the session was started with.
    public var parameters: [String: String]
    /// Its events, errors, transcripts and replies, oldest first.
    public var timeline: [AIRecordEntry]
}

/// Which records to list: every condition given must hold.
public struct AIRecordFilter: Hashable, Sendable {
    /// Only records of this kind (nil: every kind).
    public var kind: AIRecordKind?
    /// Only records whose device identifier or name contains this text (case-insensitive).
    public var device: String?
    /// Only records started at or after this time.
    public var since: Date?
    /// Only records with at least one error.
    public var errorsOnly: Bool
    /// At most this many, newest first.
    public var limit: Int

    /// A filter; with no arguments it lists the newest 200 records.
    public init(kind: AIRecordKind? = nil, device: String? = nil, since: Date? = nil, errorsOnly: Bool = false, limit: Int = 200) {
        self.kind = kind
        self.device = device
        self.since = since
        self.errorsOnly = errorsOnly
        self.limit = limit
    }
}
