import Foundation

/// Where log records end up (the console, a file, a test's memory).
///
/// Destinations receive records that are already filtered by level and redacted; implementations must
/// be thread-safe.
public protocol LogDestination: Sendable {
    /// Writes one record.
    func write(_ record: LogRecord)
}

/// Turns a record into one line of text.
public struct LogFormatter: Sendable {
    /// Whether lines start with an ISO 8601 UTC timestamp.
    public var includeTimestamp: Bool

    /// Creates a formatter that writes one line per record, starting with an ISO 8601 time unless
    /// `includeTimestamp` is false.
    public init(includeTimestamp: Bool = true) {
        self.includeTimestamp = includeTimestamp
    }

    /// `2025-01-02T03:04:05.678Z [info] smp: message` (without the timestamp when disabled); newlines in
    /// the message are escaped so that one record is one line.
    public func format(_ record: LogRecord) -> String {
        var line = ""
        if includeTimestamp {
            line += record.date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
            line += " "
        }
        line += "[\(record.level.name)] \(record.category): "
        line += record.message.replacingOccurrences(of: "\n", with: "\\n")
        return line
    }
}

extension LogLevel {
    /// The lowercase name of the level, as used in log lines (`trace` … `error`).
    public var name: String {
        switch self {
        case .trace: "trace"
        case .debug: "debug"
        case .info: "info"
        case .warning: "warning"
        case .error: "error"
        }
    }

    /// Parses a level name as printed by ``name``; `nil` for anything else.
    public init?(name: String) {
        guard let level = LogLevel.allCases.first(where: { $0.name == name.lowercased() }) else { return nil }
        self = level
    }
}
