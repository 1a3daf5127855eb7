import AIBudsSync
import AIBudsTestKit
import Foundation
import Testing

@testable import AIBuds
@testable import AIBudsImport

#if canImport(Glibc)
import Glibc
#endif

/// One import at a time into a folder, in this process too; a lock that cannot be taken fails.
@Suite("Import destination lock", .timeLimit(.minutes(1)))
struct ImportDestinationLockTests {
    @Test func aSecondImportInThisProcessDoesNotShareTheLock() async throws {
        let folder = try makeTemporaryDirectory("lock-in-process")
        defer { try? FileManager.default.removeItem(at: folder) }
        var first: ImportDestinationLock? = .some(try #require(try ImportDestinationLock.tryAcquire(folder)))
        #expect(try ImportDestinationLock.tryAcquire(folder) == nil)
        // A waiting import gets it once the first lets go.
        let waited = Locked(false)
        let second = Task { try await ImportDestinationLock.acquire(folder) { waited.withLock { $0 = true } } }
        try await eventually("the second import to wait") { waited.withLock { $0 } }
        withExtendedLifetime(first) {}
        first = nil
        let taken = try await second.value
        #expect(taken.folder == folder.standardizedFileURL)
    }

    @Test func aLockThatFailsForAnotherReasonThanBusyThrows() throws {
        let folder = try makeTemporaryDirectory("lock-enolck")
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = #expect(throws: CocoaError.self) {
            try ImportDestinationLock.tryAcquire(folder, lock: { _, _ in
                errno = ENOLCK
                return -1
            })
        }
        #expect((error?.userInfo[NSUnderlyingErrorKey] as? POSIXError)?.code == .ENOLCK)
        // Busy (EWOULDBLOCK) is not an error: nil, so the caller waits.
        #expect(try ImportDestinationLock.tryAcquire(folder, lock: { _, _ in
            errno = EWOULDBLOCK
            return -1
        }) == nil)
        // Nothing stays held after either.
        #expect(try ImportDestinationLock.tryAcquire(folder) != nil)
    }

    @Test func aLedgerWhoseRewriteFailsKeepsTheEntry() throws {
        let directory = try makeTemporaryDirectory("ledger-remove")
        defer { try? FileManager.default.removeItem(at: directory) }
        let ledger = try ImportLedger(deviceID: "dev", directory: directory)
        try ledger.record(ImportLedgerEntry(deviceID: "dev", name: "a.jpg", size: 1, sha256: "00", localPath: "/a"))
        try ledger.record(ImportLedgerEntry(deviceID: "dev", name: "b.jpg", size: 2, sha256: "01", localPath: "/b"))
        // The ledger's file replaced by a non-empty folder: the atomic rewrite cannot replace it.
        try FileManager.default.removeItem(at: ledger.fileURL)
        try FileManager.default.createDirectory(at: ledger.fileURL.appendingPathComponent("in-the-way"), withIntermediateDirectories: true)
        #expect(throws: (any Error).self) { try ledger.remove(named: "a.jpg") }
        #expect(ledger.entry(named: "a.jpg") != nil && ledger.entry(named: "b.jpg") != nil)
        // With the file back, the removal goes through.
        try FileManager.default.removeItem(at: ledger.fileURL)
        try ledger.remove(named: "a.jpg")
        #expect(ledger.entry(named: "a.jpg") == nil && ledger.entry(named: "b.jpg") != nil)
        #expect(try String(contentsOf: ledger.fileURL, encoding: .utf8).contains("b.jpg"))
    }
}
