import AIBudsWire
import Foundation
import Testing
@testable import AIBudsSMP

#if canImport(Glibc)
import Glibc
#endif

/// The discovery folder is shared by every process of the user: what another program plants
/// there is skipped, never read without end.
@Suite struct SMPDiscoveryFolderTests {
    @Test func aLinkToADeviceAndAFIFOAreSkippedAndARealAnnouncementIsRead() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("discovery-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("1-1.json").path, withDestinationPath: "/dev/zero")
        #expect(mkfifo(folder.appendingPathComponent("2-2.json").path, 0o600) == 0)
        let mine = DiscoveryAnnouncement(name: "Desk Buds", address: "udp://127.0.0.1:9", product: 1, mac: "02:00:00:00:00:09",
                                         pid: getpid(), rssi: nil)
        try JSONEncoder().encode(mine).write(to: folder.appendingPathComponent("\(getpid())-9.json"))
        let clock = ContinuousClock()
        let started = clock.now
        let found = SMPDiscovery(directory: folder).announcements()
        #expect(found.map(\.name) == ["Desk Buds"])
        #expect(clock.now - started < .seconds(5))
    }
}
