import AIBudsFoundation

/// What a device says about itself (the Device `info` response of docs/protocol.md §3).
public struct DeviceIdentity: Hashable, Codable, Sendable {
    /// The device's name.
    public var name: String
    /// The kind of product.
    public var product: DeviceProduct
    /// The model name.
    public var model: String
    /// The serial number.
    public var serialNumber: String
    /// The firmware version.
    public var firmwareVersion: String
    /// The MAC address, `AA:BB:CC:DD:EE:FF`.
    public var macAddress: String
    /// The capabilities the device supports.
    public var capabilities: Set<DeviceCapability>
    /// The largest control packet the device accepts, in bytes.
    public var mtu: Int

    /// Creates an identity.
    public init(
        name: String, product: DeviceProduct, model: String, serialNumber: String, firmwareVersion: String,
        macAddress: String, capabilities: Set<DeviceCapability>, mtu: Int
    ) {
        self.name = name
        self.product = product
        self.model = model
        self.serialNumber = serialNumber
        self.firmwareVersion = firmwareVersion
        self.macAddress = macAddress
        self.capabilities = capabilities
        self.mtu = mtu
    }
}
