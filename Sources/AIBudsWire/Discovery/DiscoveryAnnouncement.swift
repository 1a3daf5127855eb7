#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// What a running emulator writes so that scanners on the same host find it (docs/protocol.md §5):
/// `<runtime dir>/aibuds/devices/<pid>-<port>.json`. The emulator writes it; the SMP plugin's
/// scanner reads it.
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
    /// The signal strength a scanner reports for this device; a file without one still announces
    /// the device.
    public var rssi: Int?

    /// Creates what an emulator announces about itself (docs/protocol.md §5): its name, SMP
    /// address, product, MAC address, process id and RSSI.
    public init(name: String, address: String, product: Int, mac: String, pid: Int32, rssi: Int?) {
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
