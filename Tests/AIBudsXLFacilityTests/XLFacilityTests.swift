import AIBudsLog
import AIBudsLogStore
import AIBudsSQLite
import AIBudsTestKit
import AIBudsXLFacility
import Foundation
import Testing

/// XLFacility, the production log plugin, on a real SQLite file.
@Suite struct XLFacilityTests {
    @Test func keepsQueriesExportsAndPurgesWhatItIsGiven() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let redactor = LogRedactor()
        redactor.register("hunter2-password-xyz")
        let facility = try XLFacility(path: folder.appendingPathComponent("logs.sqlite").path, retention: 3600,
                                      minimumLevel: .info, redactor: redactor)
        let old = Date(timeIntervalSinceNow: -7200)
        facility.log(LogRecord(date: old, level: .warning, category: "smp", message: "an old warning"))
        facility.log(LogRecord(level: .debug, category: "smp", message: "below the level"))
        facility.log(LogRecord(level: .info, category: "import", message: "imported 3 files", device: "G1"))
        facility.log(LogRecord(level: .error, category: "smp", message: "password hunter2-password-xyz refused"))

        let all = try facility.query()
        #expect(all.map(\.message) == ["an old warning", "imported 3 files", "password <redacted> refused"])
        #expect(!all.contains { $0.message == "below the level" })
        #expect(try facility.query(LogQuery(module: "import")).map(\.device) == ["G1"])
        #expect(try facility.query(LogQuery(minimumLevel: .error)).count == 1)

        let export = folder.appendingPathComponent("export.jsonl")
        #expect(try facility.export(to: export) == 3)
        let lines = try String(contentsOf: export, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 3)
        let first = try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
        #expect(first["module"] as? String == "import" && first["device"] as? String == "G1")

        // One record is older than the hour of retention.
        #expect(try facility.purgeExpired() == 1)
        #expect(try facility.query().count == 2)
    }

    @Test func anotherProgramsDatabaseIsRefused() throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("app.sqlite").path
        let other = try SQLiteDatabase(path: path)
        try other.execute("CREATE TABLE contacts (name TEXT)")
        #expect(throws: SQLiteError.self) { _ = try XLFacility(path: path) }
        // Its data is untouched: no log table was added.
        #expect(try other.query("SELECT name FROM sqlite_master WHERE type = 'table'").count == 1)
    }
}
