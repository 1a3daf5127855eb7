import AIBuds
import AIBudsFoundation
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The emulator announcements on this host (docs/protocol.md §5):
/// `<runtime dir>/aibuds/devices/<pid>-<port>.json`.
struct SMPDiscovery: Sendable {
    /// One announcement file's content.
    struct Announcement: Decodable, Sendable, Equatable {
        var name: String
        var address: String
        var product: Int
        var mac: String
        var pid: Int32
        var rssi: Int?
    }

    /// The folder read.
    let directory: URL

    /// Reads `directory`, or the default folder when `nil`.
    init(directory: URL?) {
        self.directory = directory ?? Self.defaultDirectory()
    }

    /// `$XDG_RUNTIME_DIR/aibuds/devices`, or `/tmp/aibuds-<uid>/aibuds/devices` when it is unset or empty.
    static func defaultDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let runtime = environment["XDG_RUNTIME_DIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp/aibuds-\(getuid())"
        return URL(fileURLWithPath: runtime, isDirectory: true).appendingPathComponent("aibuds/devices", isDirectory: true)
    }

    /// The announcements of running processes, in file-name order; unreadable files and those of
    /// processes that are gone are skipped.
    func announcements() -> [Announcement] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
        let decoder = JSONDecoder()
        return names.sorted().filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.compactMap { name in
            let url = directory.appendingPathComponent(name)
            guard let data = try? Data(contentsOf: url), data.count < 64 * 1024,
                let announcement = try? decoder.decode(Announcement.self, from: data),
                Self.isRunning(announcement.pid)
            else { return nil }
            return announcement
        }
    }

    /// The announcement of the device with this MAC address, if one is running.
    func announcement(forMAC mac: String) -> Announcement? {
        let key = DeviceStore.normalizedMACKey(mac)
        return announcements().first { DeviceStore.normalizedMACKey($0.mac) == key }
    }

    private static func isRunning(_ pid: Int32) -> Bool {
        guard pid > 0 else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }
}
