import AIBudsSync
import Foundation

/// Writes each record as one line to standard error.
public final class ConsoleLogDestination: LogDestination {
    private let formatter: LogFormatter
    private let lock = Locked(())

    /// Creates a destination with the given line format.
    public init(formatter: LogFormatter = LogFormatter()) {
        self.formatter = formatter
    }

    /// Writes the record's line to standard error.
    public func write(_ record: LogRecord) {
        let data = Data((formatter.format(record) + "\n").utf8)
        lock.withLock { _ in FileHandle.standardError.write(data) }
    }
}
