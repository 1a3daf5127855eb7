import AIBudsFoundation

/// What a device's hardware has, derived from what it reported when it connected (Device `info` and
/// its settings): for an app deciding which screens to show.
public struct DeviceHardwareConfiguration: Sendable, Equatable {
    /// Glasses, earbuds, watch, ...
    public let product: DeviceProduct
    /// The model name.
    public let model: String?
    /// The main firmware version.
    public let firmwareVersion: String?
    /// Two buds and a charging case (the `tws` capability), each with its own battery.
    public let isTrueWirelessPair: Bool
    /// A camera (photos and videos).
    public let hasCamera: Bool
    /// The camera module's own firmware version, when the device has one and reported it.
    public let cameraFirmwareVersion: String?
    /// A Wi-Fi hotspot for bulk media.
    public let hasHotspot: Bool
    /// A display for text (teleprompter or navigation).
    public let hasDisplay: Bool
    /// Noise cancellation hardware (microphones for ANC).
    public let hasNoiseCancellation: Bool
    /// A sensor that tells whether the device is worn.
    public let hasWearSensor: Bool
    /// The equalizer's number of bands, 0 without a custom equalizer.
    public let equalizerBandCount: Int
    /// The highest volume step, when the device reported one.
    public let maxVolume: Int?

    /// Derives the configuration from a device's product, identity, capabilities and last status.
    public init(
        product: DeviceProduct, model: String?, firmwareVersion: String?, capabilities: Set<DeviceCapability>,
        status: DeviceStatus
    ) {
        self.product = product
        self.model = model
        self.firmwareVersion = firmwareVersion
        isTrueWirelessPair = capabilities.contains(.tws)
        hasCamera = capabilities.contains(.camera)
        cameraFirmwareVersion = status.cameraFirmwareVersion
        hasHotspot = capabilities.contains(.hotspot)
        hasDisplay = capabilities.contains(.teleprompter) || capabilities.contains(.navigation)
        hasNoiseCancellation = capabilities.contains(.anc)
        hasWearSensor = capabilities.contains(.wearDetection)
        equalizerBandCount = capabilities.contains(.equalizer) ? status.equalizerBands.count : 0
        maxVolume = status.maxVolume
    }
}
