import AIBudsTestKit
import Foundation
import Testing

@testable import AIBuds
@testable import AIBudsImport

@Suite("Import ledger")
struct ImportLedgerTests {
    @Test func recordsSurviveReopeningAndTheLastLineWins() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let ledger = try ImportLedger(deviceID: "SN-1", directory: directory)
        #expect(ledger.entries.isEmpty)
        try ledger.record(ImportLedgerEntry(deviceID: "SN-1", name: "b.jpg", size: 10, sha256: "aa", localPath: "/x/b.jpg"))
        try ledger.record(ImportLedgerEntry(deviceID: "SN-1", name: "a.mp4", size: 20, sha256: "bb", localPath: "/x/a.mp4"))
        try ledger.record(ImportLedgerEntry(deviceID: "SN-1", name: "b.jpg", size: 11, sha256: "cc", localPath: "/x/b (1).jpg"))

        let reopened = try ImportLedger(deviceID: "SN-1", directory: directory)
        #expect(reopened.entries.map(\.name) == ["a.mp4", "b.jpg"])
        #expect(reopened.contains(name: "b.jpg", size: 11))
        #expect(!reopened.contains(name: "b.jpg", size: 10))
        #expect(!reopened.contains(name: "c.wav", size: 1))
        #expect(reopened.entry(named: "b.jpg")?.sha256 == "cc")
    }

    @Test func aTornLastLineIsSkipped() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let ledger = try ImportLedger(deviceID: "dev", directory: directory)
        try ledger.record(ImportLedgerEntry(deviceID: "dev", name: "a.jpg", size: 1, sha256: "00", localPath: "/a"))
        let handle = try FileHandle(forWritingTo: ledger.fileURL)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("{\"device\":\"dev\",\"name\":\"b.j".utf8))
        try handle.close()
        let reopened = try ImportLedger(deviceID: "dev", directory: directory)
        #expect(reopened.entries.map(\.name) == ["a.jpg"])
        // Recording after a torn line starts on a fresh line only if the file ends with one; the
        // torn fragment and the new entry then share a line, which must not lose the new entry.
        try reopened.record(ImportLedgerEntry(deviceID: "dev", name: "c.jpg", size: 3, sha256: "11", localPath: "/c"))
        let third = try ImportLedger(deviceID: "dev", directory: directory)
        #expect(third.entries.map(\.name) == ["a.jpg", "c.jpg"])
    }

    @Test func removingRewritesTheFile() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let ledger = try ImportLedger(deviceID: "dev", directory: directory)
        try ledger.record(ImportLedgerEntry(deviceID: "dev", name: "a.jpg", size: 1, sha256: "00", localPath: "/a"))
        try ledger.record(ImportLedgerEntry(deviceID: "dev", name: "b.jpg", size: 2, sha256: "01", localPath: "/b"))
        try ledger.remove(named: "a.jpg")
        #expect(try ImportLedger(deviceID: "dev", directory: directory).entries.map(\.name) == ["b.jpg"])
    }

    @Test func hostileDeviceIDsMakeSafeDistinctFileNames() {
        #expect(ImportLedger.fileName(for: "SN-12.a") == "ledger-SN-12.a.jsonl")
        #expect(ImportLedger.fileName(for: "../../etc/passwd") == "ledger-_2E._2F.._2Fetc_2Fpasswd.jsonl")
        #expect(ImportLedger.fileName(for: "a/b") != ImportLedger.fileName(for: "a_2Fb"))
        #expect(!ImportLedger.fileName(for: "x\u{0}y/é").contains("/"))
    }
}
