import AIBudsSync
import AIBudsLog
import AIBudsLogStore
import Foundation

/// The production log plugin (the vendor's `AIBudsXLFacility`): every record kept in a local
/// SQLite store that is queried by time, level, module and device, exported as JSON lines, and
/// purged of records older than the retention period (hourly, and on ``purgeExpired(now:)``).
///
/// Register it with `AIBudsLogSDK.setXLFacilityPlugin(_:)` and choose the `.xlfacility` output,
/// or hand it to the SDK as its log service. Logging only queues the record (a background thread
/// commits batches), so it costs the caller next to nothing; `aibuds logs` reads the same store.
public final class XLFacility: LogService {
    /// The store the records go to.
    public let store: SQLiteLogStore
    private let levelBox: Locked<LogLevel>
    private let redactor: LogRedactor

    /// Opens (or creates) the store at `path` (by default `$XDG_STATE_HOME/aibuds/logs.sqlite`),
    /// keeping records for `retention` seconds (7 days by default) and recording `minimumLevel`
    /// and above.
    ///
    /// - Throws: `SQLiteError` when the file cannot be opened, or is another program's database.
    public init(
        path: String = SQLiteLogStore.defaultPath(), retention: TimeInterval = 7 * 24 * 3600,
        minimumLevel: LogLevel = .debug, redactor: LogRedactor = .shared
    ) throws {
        store = try SQLiteLogStore(path: path, retention: retention)
        levelBox = Locked(minimumLevel)
        self.redactor = redactor
    }

    /// The least severe level kept; settable at run time.
    public var minimumLevel: LogLevel {
        get { levelBox.withLock { $0 } }
        set { levelBox.withLock { $0 = newValue } }
    }

    /// Redacts the record's secrets and queues it for the store.
    public func log(_ record: LogRecord) {
        guard isLogging(record.level) else { return }
        store.write(redactor.redact(record))
    }

    /// The records matching `query`, oldest first.
    public func query(_ query: LogQuery = LogQuery()) throws -> [LogRecord] {
        try store.records(matching: query)
    }

    /// Writes the records matching `query` to `url` as JSON lines (replacing only a regular file);
    /// returns how many it wrote.
    @discardableResult
    public func export(_ query: LogQuery = LogQuery(), to url: URL) throws -> Int {
        try store.export(query, to: url)
    }

    /// Deletes the records older than the retention period; returns how many it deleted.
    @discardableResult
    public func purgeExpired(now: Date = Date()) throws -> Int {
        try store.purgeExpired(now: now)
    }

    /// Commits every queued record now.
    public func flush() { store.flush() }
}
