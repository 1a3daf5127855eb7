import AIBudsWire
import Foundation
import Testing

@testable import AIBuds
@testable import AIBudsImport

/// Inputs the `ledger` fuzz target found, and the ledger's exact-name keys.
@Suite("Import ledger: fuzz regressions and exact names")
struct ImportLedgerFuzzRegressionTests {
    /// Found by the `ledger` fuzz target: dates the reader accepts but the hand-written writer
    /// changed. A five-digit year lost its first digit (`20260` written as `0260`), and a year
    /// before the Gregorian reform came back days off (Foundation's ISO 8601 counts it in the
    /// Julian calendar, gmtime does not).
    @Test(arguments: ["20260-03-01T10:15:00Z", "0026-03-01T10:15:00Z", "1582-10-04T23:59:59Z", "1583-01-01T00:00:00Z", "9999-12-31T23:59:59Z"])
    func datesTheReaderAcceptsSurviveTheWriter(date: String) throws {
        let line = #"{"at":"\#(date)","device":"SN-1","name":"a.jpg","path":"/x/a.jpg","sha256":"aa","size":1}"#
        let entries = ImportLedger.entries(fromLines: Data(line.utf8), deviceID: "SN-1")
        let entry = try #require(entries[MediaFileName("a.jpg")])
        let again = ImportLedger.entries(fromLines: Data(entry.jsonLine), deviceID: "SN-1")
        #expect(again[MediaFileName("a.jpg")] == entry, "\(String(decoding: entry.jsonLine, as: UTF8.self))")
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
