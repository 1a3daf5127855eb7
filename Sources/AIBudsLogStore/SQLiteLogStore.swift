import AIBudsFiles
import AIBudsLog
import AIBudsSQLite
import AIBudsSync
import Foundation

/// The production log destination: records kept in an SQLite database, queried by time, level,
/// module and device, exported as JSON lines, and purged when older than the retention period.
///
/// `write` only appends the record to a queue (a lock and an array append), so logging costs the
/// caller next to nothing; a background thread commits the queue in batches, every
/// `flushInterval` or as soon as `batchSize` records wait. When `maximumQueued` records wait (the
/// disk is slower than the logging), `write` commits them itself: the caller slows down, nothing is
/// dropped. Write failures never throw into the caller; they are counted in ``failedWriteCount``.
/// Records arrive already redacted by the log service (``/AIBudsLog/FanOutLogService``).
public final class SQLiteLogStore: LogDestination {
    private struct Queue {
        var pending: [LogRecord] = []
        var failedWrites = 0
        var stopping = false
        /// Whether the flush thread runs (an initializer that threw never started it).
        var flushing = false
    }

    /// How long records are kept; ``purgeExpired(now:)`` removes older ones (and runs hourly).
    public let retention: TimeInterval
    /// How often queued records are committed at the latest.
    public let flushInterval: Duration
    /// How many queued records start a commit at once.
    public let batchSize: Int
    /// How many queued records make `write` commit them itself.
    public let maximumQueued: Int
    private let database: SQLiteDatabase
    private let queue = Locked(Queue())
    private let wake = DispatchSemaphore(value: 0)
    private let flusherDone = DispatchSemaphore(value: 0)
    private let commitLock = Locked(())

    /// Where apps and `aibuds logs` keep the store by default: `$XDG_STATE_HOME/aibuds/logs.sqlite`,
    /// or `~/.local/state/aibuds/logs.sqlite` when `XDG_STATE_HOME` is unset or not absolute.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        XDGFolder.state(environment: environment).appendingPathComponent("logs.sqlite").path
    }

    /// The store's file.
    public let path: String

    /// Opens (or creates) the store at `path`, keeping records for `retention` seconds (7 days by default).
    ///
    /// - Throws: `SQLiteError` (code `SQLiteError.notADatabase`) when `path` is another program's SQLite database (it has tables
    ///   and no log table of this shape): the store never adds its table to someone else's data.
    public init(
        path: String, retention: TimeInterval = 7 * 24 * 3600, flushInterval: Duration = .milliseconds(200),
        batchSize: Int = 512, maximumQueued: Int = 20_000
    ) throws {
        self.retention = retention
        self.flushInterval = flushInterval
        self.batchSize = max(1, batchSize)
        self.maximumQueued = max(self.batchSize, maximumQueued)
        self.path = path
        database = try SQLiteDatabase(path: path)
        try Self.refuseForeign(database, path: path)
        try database.execute(
            """
            CREATE TABLE IF NOT EXISTS log (
                id INTEGER PRIMARY KEY, time REAL NOT NULL, level INTEGER NOT NULL,
                module TEXT NOT NULL, device TEXT, message TEXT NOT NULL);
            CREATE INDEX IF NOT EXISTS log_time ON log(time);
            CREATE INDEX IF NOT EXISTS log_device_time ON log(device, time);
            """)
        try purgeExpired()
        let thread = Thread { [self] in flushLoop() }
        thread.name = "log-store"
        queue.withLock { $0.flushing = true }
        thread.start()
    }

    /// Commits what is queued and stops the background thread; later writes are committed at once.
    public func close() {
        let (wasStopping, flushing) = queue.withLock { state in
            defer { state.stopping = true }
            return (state.stopping, state.flushing)
        }
        guard !wasStopping, flushing else { return }
        wake.signal()
        flusherDone.wait()
        flush()
    }

    deinit { close() }

    /// Queues the record for the next commit (see the type's summary).
    public func write(_ record: LogRecord) {
        let (count, stopping) = queue.withLock { state in
            state.pending.append(record)
            return (state.pending.count, state.stopping)
        }
        if count >= maximumQueued || stopping {
            flush()
        } else if count == batchSize {
            wake.signal()
        }
    }

    /// Commits every queued record now (the CLI and tests call it before reading).
    public func flush() {
        commitLock.withLock { _ in
            let batch = queue.withLock { state in
                defer { state.pending.removeAll(keepingCapacity: true) }
                return state.pending
            }
            guard !batch.isEmpty else { return }
            do {
                try database.transaction { transaction in
                    for record in batch {
                        try transaction.query(
                            "INSERT INTO log (time, level, module, device, message) VALUES (?, ?, ?, ?, ?)",
                            [
                                .real(record.date.timeIntervalSince1970), .integer(Int64(record.level.rawValue)),
                                .text(record.category), record.device.map { .text($0) } ?? .null,
                                .text(record.message),
                            ])
                    }
                }
            } catch {
                queue.withLock { $0.failedWrites += batch.count }
            }
        }
    }

    /// How many records could not be committed (file system or database errors).
    public var failedWriteCount: Int { queue.withLock { $0.failedWrites } }

    /// The records matching `query`, oldest first (queued ones are committed first).
    public func records(matching query: LogQuery = LogQuery()) throws -> [LogRecord] {
        flush()
        var conditions: [String] = []
        var parameters: [SQLiteValue] = []
        if let since = query.since {
            conditions.append("time >= ?")
            parameters.append(.real(since.timeIntervalSince1970))
        }
        if let until = query.until {
            conditions.append("time < ?")
            parameters.append(.real(until.timeIntervalSince1970))
        }
        if let level = query.minimumLevel {
            conditions.append("level >= ?")
            parameters.append(.integer(Int64(level.rawValue)))
        }
        if let module = query.module {
            conditions.append("module = ?")
            parameters.append(.text(module))
        }
        if let device = query.device {
            conditions.append("device = ?")
            parameters.append(.text(device))
        }
        var sql = "SELECT time, level, module, device, message FROM log"
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        sql += " ORDER BY time DESC, id DESC"
        if let limit = query.limit {
            sql += " LIMIT ?"
            parameters.append(.integer(Int64(max(0, limit))))
        }
        return try database.query(sql, parameters).reversed().map { row in
            LogRecord(
                date: Date(timeIntervalSince1970: row[0].real ?? 0),
                level: LogLevel(rawValue: Int(row[1].integer ?? 0)) ?? .info, category: row[2].text ?? "",
                message: row[4].text ?? "", device: row[3].text)
        }
    }

    /// Writes the records matching `query` to `url` as JSON lines (`time`, `level`, `module`,
    /// `device`, `message`), replacing the file through ``/AIBudsFiles/OutputFile`` (never a symbolic link, a
    /// device or the store's own files); returns how many were written.
    @discardableResult
    public func export(_ query: LogQuery = LogQuery(), to url: URL) throws -> Int {
        let matching = try records(matching: query)
        var text = ""
        for record in matching { text += Self.jsonLine(record) + "\n" }
        let own = ["", "-wal", "-shm", "-journal"].map { URL(fileURLWithPath: path + $0) }
        try OutputFile.replace(url, with: Data(text.utf8), permissions: 0o600, protecting: own)
        return matching.count
    }

    /// The columns of the store's `log` table.
    private static let columns: Set<String> = ["id", "time", "level", "module", "device", "message"]

    /// Throws when the database holds tables but no `log` table with the store's columns.
    private static func refuseForeign(_ database: SQLiteDatabase, path: String) throws {
        let tables = Set(try database.query("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap { $0[0].text })
        guard !tables.isEmpty else { return }
        let columns = Set(try database.query("SELECT name FROM pragma_table_info('log')").compactMap { $0[0].text })
        guard columns == Self.columns else {
            throw SQLiteError(code: SQLiteError.notADatabase, message: "\(path) is another program's SQLite database (tables: "
                + tables.sorted().prefix(5).joined(separator: ", ") + "), not a log store; it was left unchanged")
        }
    }

    /// One record as a JSON object on one line.
    public static func jsonLine(_ record: LogRecord) -> String {
        struct Line: Encodable {
            var time: String
            var level: String
            var module: String
            var device: String?
            var message: String
        }
        let line = Line(
            time: record.date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)),
            level: record.level.name, module: record.category, device: record.device, message: record.message)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(line)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// Deletes records logged before `date`; returns how many.
    @discardableResult
    public func purge(before date: Date) throws -> Int {
        flush()
        return try database.change("DELETE FROM log WHERE time < ?", [.real(date.timeIntervalSince1970)])
    }

    /// Deletes records older than ``retention``; returns how many.
    @discardableResult
    public func purgeExpired(now: Date = Date()) throws -> Int {
        try purge(before: now.addingTimeInterval(-retention))
    }

    private func flushLoop() {
        var lastPurge = ContinuousClock.now
        while true {
            let milliseconds = Int(flushInterval.components.seconds * 1000 + flushInterval.components.attoseconds / 1_000_000_000_000_000)
            _ = wake.wait(timeout: .now() + .milliseconds(milliseconds))
            flush()
            if ContinuousClock.now - lastPurge > .seconds(3600) {
                lastPurge = .now
                _ = try? purgeExpired()
            }
            if queue.withLock({ $0.stopping }) { break }
        }
        flusherDone.signal()
    }
}
