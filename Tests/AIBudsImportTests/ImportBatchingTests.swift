import AIBudsFoundation
import AIBudsLog
import AIBudsSync
import AIBudsTestKit
import Foundation
import Testing

@testable import AIBuds
@testable import AIBudsImport

/// What an import does a group at a time: ledger lines, events.
@Suite("Import batching: ledger groups, event bursts")
struct ImportBatchingTests {
    @Test func ledgerLinesDecodeToTheSameEntriesWhateverTheNames() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let names = ["plain.jpg", "quote\"back\\slash.mp4", "ctl\u{0}\u{1}\u{1F}\n\t.m4a", "café/ü 😀.jpg", "del\u{7F}.jpg"]
        let date = Date(timeIntervalSince1970: 1_772_000_000)
        let entries = names.enumerated().map { index, name in
            ImportLedgerEntry(deviceID: "SN \"1\"", name: name, size: UInt64(index) << 40, sha256: "ab", localPath: "/x/\(name)", importedAt: date)
        }
        let ledger = try ImportLedger(deviceID: "SN \"1\"", directory: directory)
        try ledger.record(contentsOf: entries)
        let reopened = try ImportLedger(deviceID: "SN \"1\"", directory: directory)
        #expect(Set(reopened.entries.map(\.name)) == Set(names))
        for entry in entries { #expect(reopened.entry(named: entry.name) == entry) }
        // One line per entry, as JSONEncoder would accept it back.
        let text = try String(contentsOf: ledger.fileURL, encoding: .utf8)
        #expect(text.split(separator: "\n").count == names.count)
        #expect(text.hasPrefix("{\"at\":\"2026-02-25T06:13:20Z\",\"device\":\"SN \\\"1\\\"\""))
        // Another device's entry records nothing of the group.
        #expect(throws: AIBudsError.self) {
            try ledger.record(contentsOf: [entries[0], ImportLedgerEntry(deviceID: "other", name: "z", size: 1, sha256: "00", localPath: "/z")])
        }
        #expect(try ImportLedger(deviceID: "SN \"1\"", directory: directory).entries.count == names.count)
    }

    @Test func ledgerWriterRecordsFullGroupsAtOnceAndTheRestOnFlush() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let ledger = try ImportLedger(deviceID: "dev", directory: directory)
        let writer = LedgerWriter(ledger: ledger, groupSize: 3, logger: NullLogService())
        for index in 0..<7 {
            writer.add(ImportLedgerEntry(deviceID: "dev", name: "f\(index)", size: 1, sha256: "00", localPath: "/f\(index)"))
        }
        #expect(try ImportLedger(deviceID: "dev", directory: directory).entries.count == 6)
        writer.flush()
        #expect(try ImportLedger(deviceID: "dev", directory: directory).entries.map(\.name) == (0..<7).map { "f\($0)" })
    }

    @Test func eventsArriveInOrderInBurstsAndFlushDeliversTheRest() async throws {
        let delivered = Locked<[Int]>([])
        let batcher = EventBatcher<Int>(interval: .milliseconds(20)) { value in delivered.withLock { $0.append(value) } }
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<4 {
                group.addTask { for step in 0..<250 { batcher.send(thread * 1000 + step) } }
            }
        }
        // Within the interval some may still wait; each sender's order holds throughout.
        try await eventually("the batcher to deliver all 1000 events") { delivered.withLock { $0.count } >= 1000 }
        #expect(delivered.withLock { $0.count } == 1000)
        batcher.send(-1)
        batcher.close()
        let all = delivered.withLock { $0 }
        #expect(all.last == -1)
        for thread in 0..<4 {
            #expect(all.filter { $0 >= thread * 1000 && $0 < thread * 1000 + 1000 } == (0..<250).map { thread * 1000 + $0 })
        }
    }
}
