import AIBuds
import AIBudsFiles
import AIBudsFoundation
import AIBudsWire
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The emulator announcements on this host (docs/protocol.md §5):
/// `<runtime dir>/aibuds/devices/<pid>-<port>.json`.
struct SMPDiscovery: Sendable {
    /// The folder read.
    let directory: URL

    /// Reads `directory`, or the default folder when `nil`.
    init(directory: URL?) {
        self.directory = directory ?? DiscoveryAnnouncement.directory()
    }

    /// The announcements of running processes, in file-name order; unreadable files and those of
    /// processes that are gone are skipped.
    func announcements() -> [DiscoveryAnnouncement] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        let decoder = JSONDecoder()
        return names.sorted().filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.compactMap { name in
            let url = directory.appendingPathComponent(name)
            // The folder is shared: a link planted to /dev/zero or a FIFO is refused, not read.
            guard let data = try? InputFile.read(url, limit: 64 * 1024),
                let announcement = try? decoder.decode(DiscoveryAnnouncement.self, from: data),
                Self.isRunning(announcement.pid)
            else { return nil }
            return announcement
        }
    }

    /// The announcement of the device with this MAC address, if one is running.
    func announcement(forMAC mac: String) -> DiscoveryAnnouncement? {
        let key = DeviceStore.normalizedMACKey(mac)
        return announcements().first { DeviceStore.normalizedMACKey($0.mac) == key }
    }

    private static func isRunning(_ pid: Int32) -> Bool {
        guard pid > 0 else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }
}
