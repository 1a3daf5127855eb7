import AIBudsSync
import CSQLite
import Foundation

/// A value bound to or read from an SQL statement.
public enum SQLiteValue: Hashable, Sendable {
    /// SQL `NULL`.
    case null
    /// A 64-bit integer.
    case integer(Int64)
    /// A double.
    case real(Double)
    /// UTF-8 text.
    case text(String)
    /// Raw bytes.
    case blob([UInt8])

    /// The integer, or nil for any other kind of value.
    public var integer: Int64? { if case .integer(let value) = self { value } else { nil } }
    /// The number as a double (integers converted), or nil.
    public var real: Double? {
        switch self {
        case .real(let value): value
        case .integer(let value): Double(value)
        default: nil
        }
    }
    /// The text, or nil for any other kind of value.
    public var text: String? { if case .text(let value) = self { value } else { nil } }
    /// The bytes of a blob, or nil.
    public var blob: [UInt8]? { if case .blob(let value) = self { value } else { nil } }
}

/// An SQLite call failed: its result code and SQLite's message.
public struct SQLiteError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The SQLite result code (`SQLITE_BUSY`, `SQLITE_CORRUPT`, ...).
    public var code: Int32
    /// SQLite's English description of what went wrong.
    public var message: String
    /// `sqlite error CODE: MESSAGE`.
    public var description: String { "sqlite error \(code): \(message)" }

    /// An error with SQLite's result `code` and a message of the caller's.
    public init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    /// `SQLITE_NOTADB`: the file is not the database the caller expects.
    public static let notADatabase: Int32 = 26
}

/// One SQLite database file, opened through Debian's libsqlite3 and used from any thread.
///
/// Calls are serialized by a lock of its own; prepared statements are cached by their SQL text, so a
/// statement run repeatedly (an insert per log line) is compiled once. The database runs in WAL mode
/// with `synchronous=NORMAL`: a committed row survives the process crashing; the last transactions
/// may be lost on a power cut.
public final class SQLiteDatabase: Sendable {
    fileprivate final class Connection: @unchecked Sendable {
        var handle: OpaquePointer?
        var statements: [String: OpaquePointer] = [:]
    }

    private let connection: Locked<Connection>
    /// The file the database lives in.
    public let path: String

    /// Opens (creating when missing) the database at `path`, creating its directory too.
    public init(path: String) throws {
        self.path = path
        try FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close_v2(handle)
            throw SQLiteError(code: status, message: "\(path): \(message)")
        }
        sqlite3_busy_timeout(handle, 5000)
        let box = Connection()
        box.handle = handle
        connection = Locked(box)
        try execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;")
    }

    deinit {
        connection.withLock { box in
            for statement in box.statements.values { sqlite3_finalize(statement) }
            sqlite3_close_v2(box.handle)
            box.handle = nil
        }
    }

    /// Runs one or more statements that take no parameters and return no rows (schema, pragmas).
    public func execute(_ sql: String) throws {
        try connection.withLock { box in
            var error: UnsafeMutablePointer<CChar>?
            let status = sqlite3_exec(box.handle, sql, nil, nil, &error)
            if status != SQLITE_OK {
                let message = error.map { String(cString: $0) } ?? "error"
                sqlite3_free(error)
                throw SQLiteError(code: status, message: message)
            }
        }
    }

    /// Runs one statement with `parameters` bound to its `?` in order, and returns every row.
    @discardableResult
    public func query(_ sql: String, _ parameters: [SQLiteValue] = []) throws -> [[SQLiteValue]] {
        try connection.withLock { box in try Self.run(sql, parameters, in: box) }
    }

    /// Runs `body` in one transaction (committed when it returns, rolled back when it throws); the
    /// lock is held throughout, so nothing interleaves.
    public func transaction<T>(_ body: (Transaction) throws -> T) throws -> T {
        try connection.withLock { box in
            _ = try Self.run("BEGIN IMMEDIATE", [], in: box)
            do {
                let result = try body(Transaction(box: box))
                _ = try Self.run("COMMIT", [], in: box)
                return result
            } catch {
                _ = try? Self.run("ROLLBACK", [], in: box)
                throw error
            }
        }
    }

    /// The statements of one transaction (see ``SQLiteDatabase/transaction(_:)``).
    public struct Transaction {
        fileprivate let box: Connection

        /// Runs one statement inside the transaction and returns every row.
        @discardableResult
        public func query(_ sql: String, _ parameters: [SQLiteValue] = []) throws -> [[SQLiteValue]] {
            try SQLiteDatabase.run(sql, parameters, in: box)
        }

        /// The rowid of the last row inserted in this transaction.
        public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(box.handle) }
        /// Rows changed by the last statement.
        public var changes: Int { Int(sqlite3_changes(box.handle)) }
    }

    /// Inserts with `sql` and returns the new row's rowid.
    public func insert(_ sql: String, _ parameters: [SQLiteValue]) throws -> Int64 {
        try connection.withLock { box in
            _ = try Self.run(sql, parameters, in: box)
            return sqlite3_last_insert_rowid(box.handle)
        }
    }

    /// Runs a changing statement and returns how many rows it changed.
    @discardableResult
    public func change(_ sql: String, _ parameters: [SQLiteValue] = []) throws -> Int {
        try connection.withLock { box in
            _ = try Self.run(sql, parameters, in: box)
            return Int(sqlite3_changes(box.handle))
        }
    }

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    fileprivate static func run(_ sql: String, _ parameters: [SQLiteValue], in box: Connection) throws -> [[SQLiteValue]] {
        guard let handle = box.handle else { throw SQLiteError(code: SQLITE_MISUSE, message: "database closed") }
        func failure(_ status: Int32) -> SQLiteError {
            SQLiteError(code: status, message: String(cString: sqlite3_errmsg(handle)))
        }
        let statement: OpaquePointer
        if let cached = box.statements[sql] {
            statement = cached
        } else {
            var prepared: OpaquePointer?
            let status = sqlite3_prepare_v2(handle, sql, -1, &prepared, nil)
            guard status == SQLITE_OK, let prepared else { throw failure(status) }
            box.statements[sql] = prepared
            statement = prepared
        }
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (offset, value) in parameters.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .null: status = sqlite3_bind_null(statement, index)
            case .integer(let number): status = sqlite3_bind_int64(statement, index, number)
            case .real(let number): status = sqlite3_bind_double(statement, index, number)
            case .text(let text):
                // With its length: text may hold NUL characters, which a C string would cut off.
                // A terminating NUL keeps the buffer non-empty; it is not part of the length.
                let bytes = text.utf8.map { CChar(bitPattern: $0) } + [0]
                status = bytes.withUnsafeBufferPointer { buffer in
                    sqlite3_bind_text64(
                        statement, index, buffer.baseAddress, sqlite3_uint64(buffer.count - 1), transient, UInt8(SQLITE_UTF8))
                }
            case .blob(let bytes):
                status = bytes.withUnsafeBytes {
                    sqlite3_bind_blob64(statement, index, $0.baseAddress, sqlite3_uint64($0.count), transient)
                }
            }
            guard status == SQLITE_OK else { throw failure(status) }
        }
        var rows: [[SQLiteValue]] = []
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { break }
            guard status == SQLITE_ROW else { throw failure(status) }
            let count = sqlite3_column_count(statement)
            var row: [SQLiteValue] = []
            row.reserveCapacity(Int(count))
            for column in 0..<count {
                switch sqlite3_column_type(statement, column) {
                case SQLITE_INTEGER: row.append(.integer(sqlite3_column_int64(statement, column)))
                case SQLITE_FLOAT: row.append(.real(sqlite3_column_double(statement, column)))
                case SQLITE_TEXT:
                    // The text first, then its length (SQLite's documented order).
                    let pointer = sqlite3_column_text(statement, column)
                    let size = Int(sqlite3_column_bytes(statement, column))
                    let text = pointer.map { String(decoding: UnsafeBufferPointer(start: $0, count: size), as: UTF8.self) }
                    row.append(.text(text ?? ""))
                case SQLITE_BLOB:
                    let size = Int(sqlite3_column_bytes(statement, column))
                    if let base = sqlite3_column_blob(statement, column), size > 0 {
                        row.append(.blob(Array(UnsafeRawBufferPointer(start: base, count: size))))
                    } else {
                        row.append(.blob([]))
                    }
                default: row.append(.null)
                }
            }
            rows.append(row)
        }
        return rows
    }
}
