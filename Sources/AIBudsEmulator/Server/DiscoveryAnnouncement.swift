#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// What a running emulator writes so that scanners on the same host find it (docs/protocol.md §5):
/// `<runtime dir>/aibuds/devices/<pid>-<port>.json`.
public struct DiscoveryAnnouncement: Codable, Equatable, Sendable {
    /// The device name.
    public var name: String
    /// The SMP address, `udp://HOST:PORT`.
    public var address: String
    /// The `DeviceProduct` raw value.
    public var product: Int
    /// The MAC address.
    public var mac: String
    /// The emulator's process id.
    public var pid: Int32
    /// The signal strength a scanner reports for this device.
    public var rssi: Int

    /// Creates an announcement.
    public init(name: String, address: String, product: Int, mac: String, pid: Int32, rssi: Int) {
        self.name = name
        self.address = address
        self.product = product
        self.mac = mac
        self.pid = pid
        self.rssi = rssi
    }

    /// The folder of announcements: `$XDG_RUNTIME_DIR/aibuds/devices`, or
    /// `/tmp/aibuds-<uid>/aibuds/devices` when `XDG_RUNTIME_DIR` is unset or empty.
    public static func directory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let runtime: String
        if let xdg = environment["XDG_RUNTIME_DIR"], !xdg.isEmpty {
            runtime = xdg
        } else {
            runtime = "/tmp/aibuds-\(getuid())"
        }
        return URL(fileURLWithPath: runtime, isDirectory: true)
            .appendingPathComponent("aibuds", isDirectory: true)
            .appendingPathComponent("devices", isDirectory: true)
    }
}

/// Writes an announcement file on start and removes it on stop.
final class DiscoveryAnnouncer: Sendable {
    let url: URL

    /// Writes `announcement` into `directory` as `<pid>-<port>.json` (with a numeric suffix when
    /// another emulator of this process already announced that port).
    init(_ announcement: DiscoveryAnnouncement, port: UInt16, directory: URL) throws(EmulatorError) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw EmulatorError(.io, "cannot create \(directory.path)", underlying: error)
        }
        var url = directory.appendingPathComponent("\(announcement.pid)-\(port).json")
        var suffix = 2
        while FileManager.default.fileExists(atPath: url.path) {
            url = directory.appendingPathComponent("\(announcement.pid)-\(port)-\(suffix).json")
            suffix += 1
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data: Data
        do { data = try encoder.encode(announcement) } catch {
            throw EmulatorError(.io, "cannot encode the discovery announcement", underlying: error)
        }
        try AtomicFile.write(data, to: url)
        self.url = url
    }

    /// Removes the announcement file.
    func remove() { try? FileManager.default.removeItem(at: url) }
}
