import AIBudsFoundation
import Foundation

/// The handle of a device on its link; this project's replacement for CoreBluetooth's `CBPeripheral`.
///
/// `identifier` is stable for one device across scans and launches (link plugins derive it from the
/// device's MAC address); `address` says where the device is reached now, for example
/// `udp://127.0.0.1:1337`.
public struct Peripheral: Hashable, Codable, Sendable, CustomStringConvertible {
    /// A stable identifier of the device on this host.
    public var identifier: UUID
    /// Where the device is reached.
    public var address: DeviceAddress
    /// The name the device advertises, if any.
    public var name: String?

    /// Creates a handle.
    public init(identifier: UUID, address: DeviceAddress, name: String? = nil) {
        self.identifier = identifier
        self.address = address
        self.name = name
    }

    /// Creates a handle whose identifier is derived from a MAC address (or any stable device key).
    public init(stableKey: String, address: DeviceAddress, name: String? = nil) {
        self.init(identifier: Self.identifier(forStableKey: stableKey), address: address, name: name)
    }

    /// A UUID derived deterministically from `key` (two FNV-1a-64 hashes), so that one device gets the
    /// same identifier on every scan.
    public static func identifier(forStableKey key: String) -> UUID {
        func fnv(_ seed: UInt64) -> UInt64 {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ seed
            for byte in key.lowercased().utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01b3
            }
            return hash
        }
        let high = fnv(0x5a5a), low = fnv(0xa5a5_0001)
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<8 {
            bytes[index] = UInt8(truncatingIfNeeded: high >> (56 - 8 * index))
            bytes[index + 8] = UInt8(truncatingIfNeeded: low >> (56 - 8 * index))
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x80  // version 8: custom
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 4122 variant
        return UUID(uuid: (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    /// `name (address)`.
    public var description: String { "\(name ?? "unnamed") (\(address))" }
}

/// The state of the link to a peripheral; the replacement for `CBPeripheralState`.
public enum PeripheralState: Int, Sendable, Codable, CaseIterable {
    /// No link.
    case disconnected = 0
    /// The link is being set up.
    case connecting = 1
    /// The link is up.
    case connected = 2
    /// The link is being closed.
    case disconnecting = 3
}
