import AIBudsSync

/// Keeps records in memory, for tests; usable as a log service or as a destination.
///
/// As a service it redacts like ``FanOutLogService``, so tests see what a file would contain.
public final class RecordingLogService: LogService, LogDestination {
    /// The least severe level recorded.
    public let minimumLevel: LogLevel
    private let redactor: LogRedactor
    private let stored = Locked<[LogRecord]>([])

    /// Creates a service recording `minimumLevel` and above.
    public init(minimumLevel: LogLevel = .trace, redactor: LogRedactor = .shared) {
        self.minimumLevel = minimumLevel
        self.redactor = redactor
    }

    /// Every record so far, oldest first.
    public var records: [LogRecord] { stored.withLock { $0 } }
    /// The messages of every record so far.
    public var messages: [String] { records.map(\.message) }

    /// Forgets every record.
    public func removeAll() { stored.withLock { $0.removeAll() } }

    /// Redacts and stores the record when its level is recorded.
    public func log(_ record: LogRecord) {
        guard record.level >= minimumLevel else { return }
        let clean = redactor.redact(record)
        stored.withLock { $0.append(clean) }
    }

    /// Stores a record handed over by a service (already filtered and redacted).
    public func write(_ record: LogRecord) {
        stored.withLock { $0.append(record) }
    }
}
