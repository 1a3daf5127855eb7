import AIBudsAIDashboard
import AIBudsLog
import AIBudsLogStore
import AIBudsTestKit
import Foundation
import Testing

/// The `aibuds` executable built next to the test bundle.
func aibuds() throws -> URL { try requireBuiltProduct("aibuds") }

@Suite(.timeLimit(.minutes(3))) struct ObservabilityCLITests {
    @Test func logsQueriesExportsAndPurges() async throws {
        let directory = try makeTemporaryDirectory()
        let path = directory.appendingPathComponent("logs.sqlite").path
        let now = Date()
        do {
            let store = try SQLiteLogStore(path: path, retention: 3600)
            let service = FanOutLogService(minimumLevel: .trace, destinations: [store], redactor: LogRedactor())
            store.write(LogRecord(date: now - 7200, level: .error, category: "smp", message: "expired", device: "glasses-1"))
            service.log(LogRecord(date: now - 600, level: .info, category: "smp", message: "connected", device: "glasses-1"))
            service.log(LogRecord(date: now - 60, level: .warning, category: "import", message: "retry with passphrase=opensesame", device: "glasses-1"))
            service.log(LogRecord(date: now - 30, level: .error, category: "smp", message: "lost", device: "buds-2"))
            store.close()
        }
        let all = try await runProgram(try aibuds(), ["logs", "--store", path])
        #expect(all.exited && all.status == 0, "\(all.err)")
        #expect(all.out.split(separator: "\n").count == 4)
        let recent = try await runProgram(try aibuds(), ["logs", "--store", path, "--since", "15m", "--level", "warning", "--device", "glasses-1", "--json"])
        let lines = recent.out.split(separator: "\n")
        #expect(lines.count == 1)
        let line = try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: String]
        #expect(line?["message"] == "retry with passphrase=<redacted>")
        #expect(line?["device"] == "glasses-1")
        #expect(!recent.out.contains("opensesame"))
        let export = directory.appendingPathComponent("out.jsonl")
        let exported = try await runProgram(try aibuds(), ["logs", "--store", path, "--module", "smp", "--export", export.path])
        #expect(exported.out == "exported 3 records to \(export.path)\n")
        #expect(try String(contentsOf: export, encoding: .utf8).split(separator: "\n").count == 3)
        // The CLI opens the store with the default 7-day retention; the expired record is 2 h old.
        let purged = try await runProgram(try aibuds(), ["logs", "--store", path, "--purge", "--since", "2026-01-01T00:00:00Z"])
        #expect(purged.err.contains("purged 0 expired records"))
        let bad = try await runProgram(try aibuds(), ["logs", "--store", path, "--level", "loud"])
        #expect(bad.exited && bad.status == 64)
        #expect(bad.err.contains("--level takes trace, debug, info, warning or error"))
        let missing = try await runProgram(try aibuds(), ["logs", "--store", directory.appendingPathComponent("none.sqlite").path])
        #expect(missing.status == 1 && missing.err.contains("no log store"))
    }

    @Test func dashboardServesWithATokenAndExports() async throws {
        let directory = try makeTemporaryDirectory()
        let data = directory.appendingPathComponent("dashboard")
        do {
            let store = try AIRecordStore(directory: data)
            let session = try AIRecorder(store: store).start(kind: .aiConversation, device: AIRecordDevice(identifier: "g", name: "Glasses"))
            session.audio([1, 2, 3, 4])
            session.finish()
        }
        let program = try RunningProgram(
            try aibuds(), ["dashboard", "--listen", "127.0.0.1:0", "--data", data.path],
            environment: ["XDG_STATE_HOME": directory.path])
        defer { program.interrupt() }
        let line = try await onOwnThread { program.readLine() }
        let url = try #require(line?.split(separator: " ").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }, "no address line: \(line ?? "nil")")
        #expect(url.hasPrefix("http://127.0.0.1:"))
        let token = String(try #require(url.split(separator: "=").last))
        let base = String(url.prefix { $0 != "?" })
        func curl(_ arguments: [String]) async throws -> String {
            try await runProgram(URL(fileURLWithPath: "/usr/bin/curl"), ["-s", "-o", "/dev/null", "-w", "%{http_code}"] + arguments).out
        }
        #expect(try await curl([base + "api/records"]) == "401")
        let authorized = try await curl(["-H", "Authorization: Bearer \(token)", base + "api/records"])
        #expect(authorized == "200", "\(url) \(token) \(base)")
        program.interrupt()
        let result = try await onOwnThread { program.finish() }
        #expect(result.exited && result.status == 0, "\(result.err)")

        let export = directory.appendingPathComponent("export")
        let exported = try await runProgram(try aibuds(), ["dashboard", "--data", data.path, "--export", export.path])
        #expect(exported.out == "exported 1 records to \(export.path)\n")
        #expect(FileManager.default.fileExists(atPath: export.appendingPathComponent("records.json").path))
    }
}
