import AIBudsSQLite
import Foundation
import Testing

/// The project's SQLite wrapper against the real libsqlite3: values of every kind round-trip,
/// parameters are bound (never spliced into the SQL), a failed transaction leaves nothing behind,
/// and a file that is not a database is a typed error.
@Suite struct SQLiteDatabaseTests {
    private func database() throws -> (SQLiteDatabase, URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sqlite-\(UUID().uuidString)")
        let database = try SQLiteDatabase(path: folder.appendingPathComponent("nested/test.sqlite").path)
        return (database, folder)
    }

    @Test func everyKindOfValueRoundTrips() throws {
        let (db, folder) = try database()
        defer { try? FileManager.default.removeItem(at: folder) }
        try db.execute("CREATE TABLE t (i INTEGER, r REAL, s TEXT, b BLOB, n)")
        let values: [SQLiteValue] = [.integer(Int64.min), .real(-0.5), .text("naïve 🎧 \u{0}tail"), .blob([0, 255, 7]), .null]
        let row = try db.insert("INSERT INTO t VALUES (?, ?, ?, ?, ?)", values)
        #expect(row == 1)
        let rows = try db.query("SELECT i, r, s, b, n FROM t")
        #expect(rows == [values])
        #expect(rows[0][0].integer == Int64.min && rows[0][1].real == -0.5 && rows[0][3].blob == [0, 255, 7])
    }

    @Test func parametersAreBoundNotSpliced() throws {
        let (db, folder) = try database()
        defer { try? FileManager.default.removeItem(at: folder) }
        try db.execute("CREATE TABLE names (name TEXT)")
        let hostile = "x'); DROP TABLE names; --"
        _ = try db.insert("INSERT INTO names VALUES (?)", [.text(hostile)])
        #expect(try db.query("SELECT name FROM names WHERE name = ?", [.text(hostile)]).count == 1)
        #expect(try db.query("SELECT count(*) FROM names").first?.first?.integer == 1)
    }

    @Test func aTransactionThatThrowsLeavesNothingBehind() throws {
        struct Stop: Error {}
        let (db, folder) = try database()
        defer { try? FileManager.default.removeItem(at: folder) }
        try db.execute("CREATE TABLE t (v INTEGER)")
        #expect(throws: Stop.self) {
            try db.transaction { transaction in
                _ = try transaction.query("INSERT INTO t VALUES (?)", [.integer(1)])
                throw Stop()
            }
        }
        #expect(try db.query("SELECT count(*) FROM t").first?.first?.integer == 0)
        let kept = try db.transaction { transaction in
            _ = try transaction.query("INSERT INTO t VALUES (?)", [.integer(2)])
            return transaction.changes
        }
        #expect(kept == 1)
        #expect(try db.change("DELETE FROM t WHERE v = ?", [.integer(2)]) == 1)
    }

    @Test func aFileThatIsNotADatabaseIsATypedError() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sqlite-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("notes.sqlite")
        try Data(repeating: 0x41, count: 4096).write(to: file)
        let error = #expect(throws: SQLiteError.self) {
            let db = try SQLiteDatabase(path: file.path)
            _ = try db.query("SELECT count(*) FROM sqlite_master")
        }
        #expect(error?.code == SQLiteError.notADatabase, "\(String(describing: error))")
        let bad = #expect(throws: SQLiteError.self) {
            let (db, other) = try database()
            defer { try? FileManager.default.removeItem(at: other) }
            _ = try db.query("SELEKT 1")
        }
        #expect(bad?.message.contains("syntax error") == true, "\(String(describing: bad))")
    }
}
