import AIBudsTestKit
import Foundation
import Testing
@testable import AIBudsLog

@Suite struct RotatingFileTests {
    @Test func rotatesBySizeAndKeepsTheBackupCount() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("sub/sdk.log")
        let destination = RotatingFileLogDestination(
            fileURL: file, maximumFileSize: 100, maximumBackupCount: 2,
            formatter: LogFormatter(includeTimestamp: false))
        // Each line is "[info] t: NNNN…" = 50 bytes, so two lines fit a file.
        for index in 0..<7 {
            let body = String(format: "%04d", index) + String(repeating: "x", count: 35)
            destination.write(LogRecord(level: .info, category: "t", message: body))
        }
        let current = try String(contentsOf: file, encoding: .utf8)
        let newest = try String(contentsOf: destination.backupURL(1), encoding: .utf8)
        let older = try String(contentsOf: destination.backupURL(2), encoding: .utf8)
        #expect(current.hasPrefix("[info] t: 0006"))
        #expect(newest.hasPrefix("[info] t: 0004") && newest.contains("0005"))
        #expect(older.hasPrefix("[info] t: 0002") && older.contains("0003"))
        #expect(!FileManager.default.fileExists(atPath: destination.backupURL(3).path))
        for url in [file, destination.backupURL(1), destination.backupURL(2)] {
            let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int ?? 0
            #expect(size <= 100)
        }
        #expect(destination.failedWriteCount == 0)
    }

    @Test func appendsToAnExistingFile() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("a.log")
        try Data("old\n".utf8).write(to: file)
        let destination = RotatingFileLogDestination(fileURL: file, formatter: LogFormatter(includeTimestamp: false))
        destination.write(LogRecord(level: .error, category: "c", message: "new"))
        #expect(try String(contentsOf: file, encoding: .utf8) == "old\n[error] c: new\n")
    }

    @Test func unwritableLocationCountsFailuresWithoutThrowing() {
        let destination = RotatingFileLogDestination(fileURL: URL(fileURLWithPath: "/proc/aibuds/nope.log"))
        destination.write(LogRecord(level: .error, category: "c", message: "x"))
        #expect(destination.failedWriteCount == 1)
    }
}
