import Foundation

/// The central a peripheral was seen by, in the place of the vendor's `CBCentralManager`: on Linux
/// a Bluetooth adapter (`/org/bluez/hci0`) for BLE, or this host's network for SMP over UDP.
public struct Central: Hashable, Sendable, CustomStringConvertible {
    /// The adapter's object path (`/org/bluez/hci0`) or `udp` for the network.
    public var identifier: String
    /// The adapter's address (`00:1A:7D:DA:71:13`), when it is a Bluetooth adapter.
    public var address: String?

    /// Names the adapter or network that saw a peripheral.
    public init(identifier: String, address: String? = nil) {
        self.identifier = identifier
        self.address = address
    }

    /// The network of SMP over UDP, the central of every UDP discovery.
    public static let network = Central(identifier: "udp")

    /// The identifier, with the address when known.
    public var description: String { address.map { "\(identifier) (\($0))" } ?? identifier }
}
