import Foundation

/// How important a log message is; higher raw values are more severe.
public enum LogLevel: Int, Sendable, Comparable, CaseIterable, Codable {
    /// Fine-grained detail for debugging the SDK itself (packets, state transitions).
    case trace = 0
    /// Detail useful when diagnosing an app's use of the SDK.
    case debug = 1
    /// Normal milestones: connected, import finished.
    case info = 2
    /// Something unexpected that the SDK recovered from.
    case warning = 3
    /// An operation failed.
    case error = 4

    /// Orders levels by severity.
    public static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One log message, as handed to a log destination after redaction.
public struct LogRecord: Sendable, Equatable {
    /// When the message was logged.
    public var date: Date
    /// Its severity.
    public var level: LogLevel
    /// The subsystem that logged it, for example `smp` or `import`.
    public var category: String
    /// The message text, with secrets already redacted.
    public var message: String
    /// The device the message is about (its identifier or name), when there is one; stores index it.
    public var device: String?

    /// Creates a record of `message` at `level` in `category` (for example `smp`), stamped `date`,
    /// about `device` when given.
    public init(date: Date = Date(), level: LogLevel, category: String, message: String, device: String? = nil) {
        self.date = date
        self.level = level
        self.category = category
        self.message = message
        self.device = device
    }
}

/// The protocol every log implementation conforms to; every module logs through one.
///
/// Libraries accept a `LogService` and never print. Implementations must be thread-safe.
public protocol LogService: Sendable {
    /// The least severe level this service records; less severe messages are not even built.
    var minimumLevel: LogLevel { get }
    /// Whether a message of `level` would be recorded; by default `level >= minimumLevel`.
    func isLogging(_ level: LogLevel) -> Bool
    /// Records one message.
    func log(_ record: LogRecord)
}

extension LogService {
    /// Whether `level` is at least ``minimumLevel``.
    @inlinable
    public func isLogging(_ level: LogLevel) -> Bool { level >= minimumLevel }

    /// Builds and records a message when ``isLogging(_:)`` is true for `level`.
    @inlinable
    public func log(_ level: LogLevel, _ category: String, _ message: @autoclosure () -> String) {
        guard isLogging(level) else { return }
        log(LogRecord(level: level, category: category, message: message()))
    }

    /// Builds and records a message about `device` when ``isLogging(_:)`` is true for `level`.
    @inlinable
    public func log(_ level: LogLevel, _ category: String, device: String, _ message: @autoclosure () -> String) {
        guard isLogging(level) else { return }
        log(LogRecord(level: level, category: category, message: message(), device: device))
    }
}

/// A log service that discards everything; the default when none is given.
public struct NullLogService: LogService {
    /// Creates a service that keeps nothing; it has no state to configure.
    public init() {}
    /// `.error`, the most severe level; ``isLogging(_:)`` is false even for it.
    public var minimumLevel: LogLevel { .error }
    /// Always false, so no message is ever built.
    public func isLogging(_ level: LogLevel) -> Bool { false }
    /// Discards the record.
    public func log(_ record: LogRecord) {}
}
