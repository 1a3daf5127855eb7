import AIBudsFoundation

/// What a device says about itself (the Device `info` response of docs/protocol.md §3).
public struct DeviceIdentity: Hashable, Codable, Sendable {
    /// The device's name.
    public var name: String
    /// Glasses, earbuds, watch, ... as the device reports it.
    public var product: DeviceProduct
    /// The model name.
    public var model: String
    /// The manufacturer's serial number of this unit.
    public var serialNumber: String
    /// The version of the firmware the device runs, as the device spells it.
    public var firmwareVersion: String
    /// The MAC address, `AA:BB:CC:DD:EE:FF`.
    public var macAddress: String
    /// The capabilities the device supports.
    public var capabilities: Set<DeviceCapability>
    /// The largest control packet the device accepts, in bytes.
    public var mtu: Int

    /// Creates the identity a device reported about itself (the SMP plugin reads it from Device
    /// `info`).
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
