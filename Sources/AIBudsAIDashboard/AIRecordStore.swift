import AIBudsFiles
import AIBudsPCM
import AIBudsSQLite
import AIBudsSync
import Foundation

/// Where AI records live: an SQLite database (`records.sqlite`) and one WAV file per record with
/// audio (`audio/<id>.wav`), in a directory of their own, so records survive restarts.
///
/// A retention limit keeps the newest `maximumRecords` records not older than `maximumAge`; older
/// ones (and their audio) are removed whenever a record is created. Every change is announced to
/// the observers (the dashboard's live updates).
///
/// Its throwing methods throw `SQLiteError` (AIBudsSQLite: the database's own code and message)
/// when the database cannot be read or written, `CocoaError` when a file or folder cannot be.
public final class AIRecordStore: Sendable {
    /// The rate of the records' audio: 16 kHz mono 16-bit WAV files.
    static let audioSampleRate = 16_000
    /// What changed, as the live updates announce it.
    public struct Change: Codable, Hashable, Sendable {
        /// The record that changed.
        public var id: Int64
        /// `created`, `updated` (status, audio), `entry` (a timeline entry added), `removed`, or
        /// `external` (another process changed the store; `id` is 0).
        public var change: String
    }

    /// The directory holding the database and the audio.
    public let directory: URL
    /// The most records kept.
    public let maximumRecords: Int
    /// The oldest a record may be, in seconds, before it is removed.
    public let maximumAge: TimeInterval
    private let database: SQLiteDatabase
    private let observers = Locked<[UUID: @Sendable (Change) -> Void]>([:])

    /// Opens (or creates) the store in `directory`.
    public init(directory: URL, maximumRecords: Int = 1000, maximumAge: TimeInterval = 30 * 24 * 3600) throws {
        self.directory = directory
        self.maximumRecords = max(1, maximumRecords)
        self.maximumAge = maximumAge
        // Records are private to the user (the dashboard's token protects nothing from other local
        // users otherwise): folders 0700, the database and its WAL 0600 (SQLite gives its WAL and
        // shared-memory files the database file's mode), audio 0600.
        try OutputFile.makeFolder(directory.appendingPathComponent("audio"), permissions: 0o700)
        for folder in [directory, directory.appendingPathComponent("audio")] { chmod(folder.path, 0o700) }
        let path = directory.appendingPathComponent("records.sqlite").path
        let created = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0o600)
        if created >= 0 { close(created) }
        for suffix in ["", "-wal", "-shm"] { chmod(path + suffix, 0o600) }
        database = try SQLiteDatabase(path: path)
        try database.execute(
            """
            CREATE TABLE IF NOT EXISTS record (
                id INTEGER PRIMARY KEY, kind TEXT NOT NULL, device_id TEXT NOT NULL, device_name TEXT NOT NULL,
                device_json TEXT NOT NULL, parameters_json TEXT NOT NULL, started REAL NOT NULL, ended REAL,
                status TEXT NOT NULL, error_count INTEGER NOT NULL DEFAULT 0, audio_bytes INTEGER NOT NULL DEFAULT 0,
                owner_pid INTEGER NOT NULL DEFAULT 0);
            CREATE TABLE IF NOT EXISTS entry (
                id INTEGER PRIMARY KEY, record_id INTEGER NOT NULL REFERENCES record(id) ON DELETE CASCADE,
                time REAL NOT NULL, kind TEXT NOT NULL, text TEXT NOT NULL, detail TEXT NOT NULL);
            CREATE INDEX IF NOT EXISTS entry_record ON entry(record_id, id);
            CREATE INDEX IF NOT EXISTS record_started ON record(started);
            """)
        // A record still running when the process recording it ended did not finish: say so.
        // (Records another live process is making stay running.)
        for row in try database.query("SELECT id, owner_pid FROM record WHERE status = 'running'") {
            guard let id = row[0].integer, let owner = row[1].integer else { continue }
            if owner <= 0 || (kill(pid_t(owner), 0) != 0 && errno == ESRCH) {
                try database.change("UPDATE record SET status = 'failed', ended = started WHERE id = ?", [.integer(id)])
            }
        }
    }

    // MARK: - Observing

    /// Calls `handler` (on the writer's thread) after every change; returns a token for
    /// ``removeObserver(_:)``.
    @discardableResult
    public func addObserver(_ handler: @escaping @Sendable (Change) -> Void) -> UUID {
        let token = UUID()
        observers.withLock { $0[token] = handler }
        return token
    }

    /// Stops calling the handler `token` was returned for.
    public func removeObserver(_ token: UUID) {
        _ = observers.withLock { $0.removeValue(forKey: token) }
    }

    private func announce(_ id: Int64, _ change: String) {
        let handlers = observers.withLock { Array($0.values) }
        for handler in handlers { handler(Change(id: id, change: change)) }
    }

    /// A number that changes whenever another process (another connection to the same files)
    /// commits a change; the live updates poll it so that sessions recorded elsewhere show too.
    public func externalVersion() throws -> Int64 {
        try database.query("PRAGMA data_version").first?.first?.integer ?? 0
    }

    // MARK: - Writing (used by AIRecorder)

    func create(kind: AIRecordKind, device: AIRecordDevice, parameters: [String: String], at time: Date) throws -> Int64 {
        let id = try database.insert(
            """
            INSERT INTO record (kind, device_id, device_name, device_json, parameters_json, started, status, owner_pid)
            VALUES (?, ?, ?, ?, ?, ?, 'running', ?)
            """,
            [
                .text(kind.rawValue), .text(device.identifier), .text(device.name), .text(try Self.json(device)),
                .text(try Self.json(parameters)), .real(time.timeIntervalSince1970), .integer(Int64(getpid())),
            ])
        announce(id, "created")
        try applyRetention()
        return id
    }

    func add(_ entry: AIRecordEntry, to id: Int64) throws {
        try database.transaction { transaction in
            try transaction.query(
                "INSERT INTO entry (record_id, time, kind, text, detail) VALUES (?, ?, ?, ?, ?)",
                [.integer(id), .real(entry.time.timeIntervalSince1970), .text(entry.kind.rawValue), .text(entry.text), .text(entry.detail)])
            if entry.kind == .error {
                try transaction.query("UPDATE record SET error_count = error_count + 1 WHERE id = ?", [.integer(id)])
            }
        }
        announce(id, "entry")
    }

    func appendAudio(_ samples: [Int16], to id: Int64) throws {
        try WAVFile.append(samples, sampleRate: Self.audioSampleRate, to: audioURL(id))
        try database.change("UPDATE record SET audio_bytes = audio_bytes + ? WHERE id = ?", [.integer(Int64(samples.count * 2)), .integer(id)])
        announce(id, "updated")
    }

    func finish(_ id: Int64, status: AIRecordStatus, at time: Date) throws {
        try database.change("UPDATE record SET status = ?, ended = ? WHERE id = ?", [.text(status.rawValue), .real(time.timeIntervalSince1970), .integer(id)])
        announce(id, "updated")
    }

    /// Removes records beyond the retention limit (count and age), with their audio; returns how many.
    @discardableResult
    public func applyRetention(now: Date = Date()) throws -> Int {
        let rows = try database.query(
            "SELECT id FROM record WHERE started < ? OR id NOT IN (SELECT id FROM record ORDER BY started DESC, id DESC LIMIT ?)",
            [.real(now.timeIntervalSince1970 - maximumAge), .integer(Int64(maximumRecords))])
        for row in rows {
            guard let id = row[0].integer else { continue }
            try delete(id)
        }
        return rows.count
    }

    /// Deletes one record and its audio.
    public func delete(_ id: Int64) throws {
        try database.change("DELETE FROM record WHERE id = ?", [.integer(id)])
        try? FileManager.default.removeItem(at: audioURL(id))
        announce(id, "removed")
    }

    // MARK: - Reading

    /// The WAV file of record `id` (it exists once audio arrived).
    public func audioURL(_ id: Int64) -> URL {
        directory.appendingPathComponent("audio/\(id).wav")
    }

    private static let summaryColumns = "id, kind, device_id, device_name, started, ended, status, error_count, audio_bytes"

    private static func summary(_ row: [SQLiteValue]) -> AIRecordSummary {
        AIRecordSummary(
            id: row[0].integer ?? 0, kind: AIRecordKind(rawValue: row[1].text ?? "") ?? .aiRecording,
            deviceIdentifier: row[2].text ?? "", deviceName: row[3].text ?? "",
            startedAt: Date(timeIntervalSince1970: row[4].real ?? 0), endedAt: row[5].real.map(Date.init(timeIntervalSince1970:)),
            status: AIRecordStatus(rawValue: row[6].text ?? "") ?? .failed, errorCount: Int(row[7].integer ?? 0),
            audioSeconds: Double(row[8].integer ?? 0) / Double(2 * Self.audioSampleRate))
    }

    /// The records matching `filter`, newest first.
    public func records(matching filter: AIRecordFilter = AIRecordFilter()) throws -> [AIRecordSummary] {
        var conditions: [String] = []
        var parameters: [SQLiteValue] = []
        if let kind = filter.kind {
            conditions.append("kind = ?")
            parameters.append(.text(kind.rawValue))
        }
        if let device = filter.device, !device.isEmpty {
            conditions.append("(instr(lower(device_id), lower(?)) > 0 OR instr(lower(device_name), lower(?)) > 0)")
            parameters += [.text(device), .text(device)]
        }
        if let since = filter.since {
            conditions.append("started >= ?")
            parameters.append(.real(since.timeIntervalSince1970))
        }
        if filter.errorsOnly { conditions.append("error_count > 0") }
        var sql = "SELECT \(Self.summaryColumns) FROM record"
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        sql += " ORDER BY started DESC, id DESC LIMIT ?"
        parameters.append(.integer(Int64(max(0, filter.limit))))
        return try database.query(sql, parameters).map(Self.summary)
    }

    /// Everything about record `id`, or nil when there is no such record.
    public func record(_ id: Int64) throws -> AIRecordDetail? {
        guard let row = try database.query(
            "SELECT \(Self.summaryColumns), device_json, parameters_json FROM record WHERE id = ?", [.integer(id)]).first
        else { return nil }
        let decoder = JSONDecoder()
        let device = try decoder.decode(AIRecordDevice.self, from: Data((row[9].text ?? "").utf8))
        let parameters = try decoder.decode([String: String].self, from: Data((row[10].text ?? "").utf8))
        let timeline = try database.query(
            "SELECT time, kind, text, detail FROM entry WHERE record_id = ? ORDER BY id", [.integer(id)]
        ).map { entry in
            AIRecordEntry(
                time: Date(timeIntervalSince1970: entry[0].real ?? 0), kind: AIRecordEntry.Kind(rawValue: entry[1].text ?? "") ?? .event,
                text: entry[2].text ?? "", detail: entry[3].text ?? "")
        }
        return AIRecordDetail(summary: Self.summary(row), device: device, parameters: parameters, timeline: timeline)
    }

    // MARK: - Export

    /// What an export wrote and what it could not.
    public struct ExportReport: Sendable {
        /// How many records `records.json` holds.
        public var exported: Int
        /// The records left out, each with why (a record whose stored fields no longer decode).
        public var skipped: [(id: Int64, reason: String)]
    }

    /// Writes the records matching `filter` into `directory`: `records.json` (every detail) and
    /// `audio/<id>.wav` for each record with audio, each through ``/AIBudsFiles/OutputFile`` (never over a
    /// symbolic link or a device, never over this store's own files), 0600 in 0700 folders. A
    /// record that cannot be read is left out and reported, never fatal to the others.
    @discardableResult
    public func export(_ filter: AIRecordFilter = AIRecordFilter(limit: Int.max), to target: URL) throws -> ExportReport {
        let own = [directory.appendingPathComponent("records.sqlite")]
        try OutputFile.makeFolder(target.appendingPathComponent("audio"), permissions: 0o700)
        var details: [AIRecordDetail] = []
        var skipped: [(id: Int64, reason: String)] = []
        for summary in try records(matching: filter) {
            do {
                guard let detail = try record(summary.id) else { continue }
                details.append(detail)
            } catch {
                skipped.append((summary.id, "its stored fields do not decode (\(error))"))
            }
        }
        for detail in details where detail.summary.audioSeconds > 0 {
            let source = audioURL(detail.summary.id)
            let destination = target.appendingPathComponent("audio/\(detail.summary.id).wav")
            try OutputFile.replace(destination, permissions: 0o600, protecting: own + [source]) { temporary in
                try FileManager.default.copyItem(at: source, to: temporary)
            }
        }
        try OutputFile.replace(
            target.appendingPathComponent("records.json"), with: try Self.encoder.encode(details), permissions: 0o600, protecting: own)
        return ExportReport(exported: details.count, skipped: skipped)
    }

    /// The JSON encoding the dashboard's API and exports use (ISO 8601 dates, sorted keys).
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    private static func json(_ value: some Encodable) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
