import AIBudsLog
import AIBudsLogStore
import AIBudsSQLite
import AIBudsTestKit
import Foundation
import Testing

@Suite(.timeLimit(.minutes(2))) struct SQLiteLogStoreTests {
    let base = Date(timeIntervalSince1970: 1_800_000_000)

    func makeStore(_ directory: URL, retention: TimeInterval = 7 * 24 * 3600) throws -> SQLiteLogStore {
        try SQLiteLogStore(path: directory.appendingPathComponent("logs/aibuds.sqlite").path, retention: retention)
    }

    func fill(_ store: SQLiteLogStore) {
        store.write(LogRecord(date: base, level: .debug, category: "smp", message: "request 1", device: "glasses-1"))
        store.write(LogRecord(date: base + 10, level: .info, category: "import", message: "imported 3 files", device: "glasses-1"))
        store.write(LogRecord(date: base + 20, level: .warning, category: "smp", message: "retransmit", device: "buds-2"))
        store.write(LogRecord(date: base + 30, level: .error, category: "import", message: "disk full\nsecond line"))
    }

    @Test func queriesByTimeLevelModuleAndDevice() throws {
        let store = try makeStore(try makeTemporaryDirectory())
        fill(store)
        #expect(try store.records().map(\.message) == ["request 1", "imported 3 files", "retransmit", "disk full\nsecond line"])
        #expect(try store.records(matching: LogQuery(since: base + 10, until: base + 30)).map(\.message) == ["imported 3 files", "retransmit"])
        #expect(try store.records(matching: LogQuery(minimumLevel: .warning)).map(\.level) == [.warning, .error])
        #expect(try store.records(matching: LogQuery(module: "smp")).map(\.message) == ["request 1", "retransmit"])
        #expect(try store.records(matching: LogQuery(device: "glasses-1")).count == 2)
        #expect(try store.records(matching: LogQuery(module: "import", device: "glasses-1")).map(\.message) == ["imported 3 files"])
        #expect(try store.records(matching: LogQuery(limit: 2)).map(\.message) == ["retransmit", "disk full\nsecond line"])
        let first = try #require(try store.records().first)
        #expect(first == LogRecord(date: base, level: .debug, category: "smp", message: "request 1", device: "glasses-1"))
    }

    @Test func recordsSurviveReopeningAndTheRealSQLiteSeesThem() async throws {
        let directory = try makeTemporaryDirectory()
        do {
            let store = try makeStore(directory)
            fill(store)
            store.close()
        }
        let reopened = try makeStore(directory)
        #expect(try reopened.records().count == 4)
        // Debian's sqlite3 program reads the same file: the format is plain SQLite.
        let sqlite3 = URL(fileURLWithPath: "/usr/bin/sqlite3")
        try #require(FileManager.default.isExecutableFile(atPath: sqlite3.path), "sqlite3 is not installed (scripts/install-deps.sh)")
        let result = try await runProgram(
            sqlite3, [directory.appendingPathComponent("logs/aibuds.sqlite").path, "SELECT module, device FROM log WHERE level = 3"])
        #expect(result.out == "smp|buds-2\n")
    }

    @Test func purgesExpiredRecords() throws {
        let store = try makeStore(try makeTemporaryDirectory(), retention: 15)
        fill(store)
        #expect(try store.purgeExpired(now: base + 35) == 2)
        #expect(try store.records().map(\.message) == ["retransmit", "disk full\nsecond line"])
        #expect(try store.purge(before: base + 25) == 1)
        #expect(try store.records().count == 1)
    }

    @Test func exportsJSONLines() throws {
        let directory = try makeTemporaryDirectory()
        let store = try makeStore(directory)
        fill(store)
        let file = directory.appendingPathComponent("export.jsonl")
        #expect(try store.export(LogQuery(minimumLevel: .warning), to: file) == 2)
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2)
        let last = try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: String]
        #expect(last?["message"] == "disk full\nsecond line")
        #expect(last?["level"] == "error")
        #expect(last?["module"] == "import")
        #expect(last?["time"] == "2027-01-15T08:00:30.000Z")
    }

    @Test func secretsAreRedactedBeforeTheStoreSeesThem() throws {
        let store = try makeStore(try makeTemporaryDirectory())
        let redactor = LogRedactor()
        redactor.register("hunter2-passphrase")
        let service = FanOutLogService(minimumLevel: .trace, destinations: [store], redactor: redactor)
        service.log(.info, "hotspot", device: "glasses-1", "joining with hunter2-passphrase, Authorization: Bearer abc.def")
        let message = try #require(try store.records().first?.message)
        #expect(!message.contains("hunter2"))
        #expect(!message.contains("abc.def"))
        #expect(message.contains("<redacted>"))
    }

    @Test func manyWritersLoseNothing() async throws {
        let store = try SQLiteLogStore(
            path: try makeTemporaryDirectory().appendingPathComponent("l.sqlite").path, batchSize: 64, maximumQueued: 256)
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    for index in 0..<2_000 {
                        store.write(LogRecord(level: .info, category: "w\(writer)", message: "\(index)"))
                    }
                }
            }
        }
        #expect(try store.records().count == 8_000)
        #expect(try store.records(matching: LogQuery(module: "w3")).count == 2_000)
        #expect(store.failedWriteCount == 0)
    }

    @Test func aCorruptFileIsATypedError() throws {
        let directory = try makeTemporaryDirectory()
        let path = directory.appendingPathComponent("bad.sqlite").path
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
        #expect(throws: SQLiteError.self) { _ = try SQLiteLogStore(path: path) }
    }
}
