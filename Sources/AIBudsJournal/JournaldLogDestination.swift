import AIBudsLog
import AIBudsSync
import CSystemd
import Foundation

/// Sends each record to systemd's journal (journald) with structured fields, through libsystemd's
/// `sd_journal_sendv`.
///
/// Fields: `MESSAGE`, `PRIORITY` (syslog: error 3, warning 4, info 6, debug and trace 7),
/// `SYSLOG_IDENTIFIER`, `AIBUDS_LEVEL`, `AIBUDS_MODULE` and, when the record has one,
/// `AIBUDS_DEVICE`, plus any fixed `extraFields`; query them with
/// `journalctl AIBUDS_DEVICE=... -o json`. A send that fails (no journald listening) never throws
/// into the caller; it is counted in ``failedWriteCount``.
public final class JournaldLogDestination: LogDestination {
    /// The `SYSLOG_IDENTIFIER` of every entry.
    public let identifier: String
    /// Fields added to every entry, such as `AIBUDS_APP=myapp`; names must be uppercase letters,
    /// digits and `_`, not starting with `_`.
    public let extraFields: [String: String]
    private let failures = Locked(0)

    /// Creates a destination whose entries carry `identifier` and `extraFields`; an invalid field
    /// name throws ``InvalidFieldName``.
    public init(identifier: String = "aibuds", extraFields: [String: String] = [:]) throws {
        for name in extraFields.keys where !Self.isValidFieldName(name) { throw InvalidFieldName(name: name) }
        self.identifier = identifier
        self.extraFields = extraFields
    }

    /// A journal field name that journald would refuse.
    public struct InvalidFieldName: Error, Hashable, Sendable, CustomStringConvertible {
        /// The refused field name, exactly as the caller spelled it.
        public var name: String
        /// Says which name and what the rule is.
        public var description: String { "invalid journal field name '\(name)': use A-Z, 0-9 and _, not starting with _" }
    }

    /// Whether journald accepts `name` as a field name.
    public static func isValidFieldName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first != "_", name.count <= 64 else { return false }
        return name.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }

    /// How many records journald did not take.
    public var failedWriteCount: Int { failures.withLock { $0 } }

    /// The syslog priority journald files a record of `level` under.
    public static func priority(of level: LogLevel) -> Int {
        switch level {
        case .error: 3
        case .warning: 4
        case .info: 6
        case .debug, .trace: 7
        }
    }

    /// Sends the record as one journal entry.
    public func write(_ record: LogRecord) {
        var fields = [
            "MESSAGE=" + record.message, "PRIORITY=\(Self.priority(of: record.level))",
            "SYSLOG_IDENTIFIER=" + identifier, "AIBUDS_LEVEL=" + record.level.name,
            "AIBUDS_MODULE=" + record.category,
        ]
        if let device = record.device { fields.append("AIBUDS_DEVICE=" + device) }
        for (name, value) in extraFields { fields.append(name + "=" + value) }
        // Values may hold newlines: the native protocol carries them (sd_journal_sendv frames them).
        let buffers = fields.map { Array($0.utf8) }
        let status = Self.send(buffers)
        if status < 0 { failures.withLock { $0 += 1 } }
    }

    private static func send(_ fields: [[UInt8]]) -> Int32 {
        var storage: [UInt8] = []
        var ranges: [Range<Int>] = []
        for field in fields {
            let start = storage.count
            storage += field
            ranges.append(start..<storage.count)
        }
        return storage.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return -EINVAL }
            let vectors = ranges.map { iovec(iov_base: base + $0.lowerBound, iov_len: $0.count) }
            return sd_journal_sendv(vectors, Int32(vectors.count))
        }
    }
}
