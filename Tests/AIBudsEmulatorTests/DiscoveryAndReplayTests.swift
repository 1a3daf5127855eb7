import AIBudsEmulator
import AIBudsNet
import AIBudsTestKit
import AIBudsWire
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

/// Decisions of docs/reliability.md "Observations": stale announcements and the replay cache.
@Suite("Discovery leftovers and the replay cache")
struct DiscoveryAndReplayTests {
    @Test func anEmulatorRemovesAnnouncementsOfProcessesThatAreGone() async throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        // pid_max is at most 2^22 on Linux: no process has this id.
        let gone = DiscoveryAnnouncement(name: "Crashed", address: "udp://127.0.0.1:9", product: 2, mac: "AA:BB:CC:DD:EE:FF",
                                         pid: 2_000_000_000, rssi: nil)
        let stale = folder.appendingPathComponent("2000000000-9.json")
        try JSONEncoder().encode(gone).write(to: stale)
        let unrelated = folder.appendingPathComponent("notes.txt")
        try Data("keep".utf8).write(to: unrelated)
        let (emulator, _) = try startEmulator { configuration in
            configuration.announce = true
            configuration.discoveryDirectory = folder
        }
        defer { emulator.stop() }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(!names.contains("2000000000-9.json"))
        #expect(names.contains("notes.txt"))
        #expect(names.contains { $0.hasPrefix("\(getpid())-") })
    }

    /// The discovery folder is shared by every process of the user: a link planted to /dev/zero
    /// or a FIFO named like an announcement is refused (read before: the start never ended).
    @Test func plantedDevicesAndFIFOsInTheDiscoveryFolderAreSkipped() async throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("1-1.json").path, withDestinationPath: "/dev/zero")
        #expect(mkfifo(folder.appendingPathComponent("2-2.json").path, 0o600) == 0)
        let (emulator, _) = try startEmulator { configuration in
            configuration.announce = true
            configuration.discoveryDirectory = folder
        }
        defer { emulator.stop() }
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(names.contains("1-1.json") && names.contains("2-2.json"))
        #expect(names.contains { $0.hasPrefix("\(getpid())-") })
    }

    @Test func aDifferentRequestWithAnOldSequenceNumberIsExecutedNotReplayed() async throws {
        let (emulator, address) = try startEmulator()
        defer { emulator.stop() }
        let probe = try UDPProbe(to: address)
        #expect(try await probe.call(OSEchoRequest(d: "first"), sequence: 7)?.r == "first")
        // Same peer (port) and sequence, another payload: a new request, not a retransmission.
        #expect(try await probe.call(OSEchoRequest(d: "second"), sequence: 7)?.r == "second")
        // The same bytes again are a retransmission: answered from the cache.
        #expect(try await probe.call(OSEchoRequest(d: "second"), sequence: 7)?.r == "second")
    }
}
