import AIBudsWire
import Foundation
import Testing

@testable import AIBuds

/// Inputs the `ledger` fuzz target found, and the ledger's exact-name keys.
@Suite("Import ledger: fuzz regressions and exact names")
struct ImportLedgerFuzzRegressionTests {
    /// Found by the `ledger` fuzz target: the reader accepts a five-digit year, and the writer
    /// wrote four digits of it (`20260` became `0260`), so a rewritten ledger changed the date.
    @Test func aYearPast9999SurvivesTheWriter() throws {
        let line = #"{"at":"20260-03-01T10:15:00Z","device":"SN-1","name":"a.jpg","path":"/x/a.jpg","sha256":"aa","size":1}"#
        let entries = ImportLedger.entries(fromLines: Data(line.utf8), deviceID: "SN-1")
        let entry = try #require(entries[MediaFileName("a.jpg")])
        let again = ImportLedger.entries(fromLines: Data(entry.jsonLine), deviceID: "SN-1")
        #expect(again[MediaFileName("a.jpg")] == entry)
        #expect(String(decoding: entry.jsonLine, as: UTF8.self).hasPrefix(#"{"at":"20260-03-01T10:15:00Z""#))
    }

    @Test func nfcAndNfdTwinsAreTwoEntries() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-twins-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let ledger = try ImportLedger(deviceID: "SN-1", directory: directory)
        try ledger.record(contentsOf: [
            ImportLedgerEntry(deviceID: "SN-1", name: "caf\u{E9}.jpg", size: 1, sha256: "aa", localPath: "/x/caf\u{E9}.jpg"),
            ImportLedgerEntry(deviceID: "SN-1", name: "cafe\u{301}.jpg", size: 2, sha256: "bb", localPath: "/x/caf\u{E9} (2).jpg"),
        ])
        let reopened = try ImportLedger(deviceID: "SN-1", directory: directory)
        #expect(reopened.entries.count == 2)
        #expect(reopened.entry(named: "caf\u{E9}.jpg")?.sha256 == "aa")
        #expect(reopened.entry(named: "cafe\u{301}.jpg")?.sha256 == "bb")
        try reopened.remove(named: "cafe\u{301}.jpg")
        #expect(try ImportLedger(deviceID: "SN-1", directory: directory).entries.map { Array($0.name.utf8) } == [Array("caf\u{E9}.jpg".utf8)])
    }
}
