import AIBudsFoundation
import Foundation

/// One peripheral a link plugin saw while scanning (what CoreBluetooth's central reports).
public struct PeripheralDiscovery: Sendable {
    /// The link handle of the device that was seen; connecting and the device's identity go through
    /// it.
    public var peripheral: Peripheral
    /// What it advertised.
    public var advertisement: Advertisement
    /// The received signal strength in dBm.
    public var rssi: Int?
    /// What the device said about itself when the plugin confirmed it, if it asked.
    public var identity: DeviceIdentity?
    /// The adapter (or network) that saw it; the SDK passes it to
    /// ``BleConnectSDK/create(_:_:advertisementData:rssi:)``.
    public var central: Central

    /// Creates the report of one device seen while scanning, with its signal strength and, when the
    /// plugin confirmed it, its identity.
    public init(
        peripheral: Peripheral, advertisement: Advertisement, rssi: Int?, identity: DeviceIdentity? = nil,
        central: Central = .network
    ) {
        self.peripheral = peripheral
        self.advertisement = advertisement
        self.rssi = rssi
        self.identity = identity
        self.central = central
    }
}

/// A link (protocol) plugin: how the SDK finds, creates and talks to one family of devices.
///
/// Loaded by `AIBudsSDK.initialize(_:configuration:delegate:)`. Linux has no CoreBluetooth central, so
/// each plugin also scans its own link (``discoverPeripherals(options:)``); the SDK then asks
/// ``isKnownDevice(_:advertisementData:rssi:)`` and ``create(_:advertisementData:rssi:)`` for every
/// report, as the vendor's central does.
public protocol BleConnectSDK: AnyObject, Sendable {
    /// The plugin's version, for example `1.0.0`.
    var sdkVersion: String { get }
    /// The plugin's build number.
    var sdkBuild: String { get }
    /// The plugin's release date, `YYYY-MM-DD`.
    var sdkReleaseDate: String { get }
    /// A one-line description of name, version and build.
    var sdkVersionDescription: String { get }
    /// The plugin's name.
    var sdkName: String { get }
    /// Who provides the plugin.
    var providerName: String { get }
    /// The link protocol the plugin speaks.
    var protocolKind: BleProtocolKind { get }
    /// The device class of this plugin, used to restore stored devices.
    var classForDeviceModel: any DeviceConvertible.Type { get }

    /// Hands the plugin the delegate that receives SDK-wide events.
    func setSDKDelegate(_ delegate: (any SDKDelegate)?)
    /// Whether the peripheral is a device this plugin handles.
    func isKnownDevice(_ peripheral: Peripheral, advertisementData: [String: Any]?, rssi: NSNumber?) -> Bool
    /// Creates the found-device model for a peripheral; `nil` when it is not this plugin's device.
    func create(_ peripheral: Peripheral, advertisementData: [String: Any]?, rssi: NSNumber?)
        -> (any FoundDeviceConvertible)?
    /// The vendor's form: the found-device model for a peripheral that `central` (the adapter) saw.
    /// The SDK calls this one; by default it forwards to ``create(_:advertisementData:rssi:)``.
    func create(_ central: Central, _ peripheral: Peripheral, advertisementData: [String: Any]?, rssi: NSNumber?)
        -> (any FoundDeviceConvertible)?

    /// The device class for a product (per-product classes declare their capability conformances);
    /// by default ``classForDeviceModel``.
    func classForDeviceModel(product: DeviceProduct) -> any DeviceConvertible.Type
    /// Scans the plugin's link until the stream is cancelled; a device may be reported many times
    /// (the SDK marks repeats with `isExistingDevice`).
    func discoverPeripherals(options: DiscoveryOptions) -> AsyncStream<PeripheralDiscovery>
    /// Finds the device at an explicit address (a device that does not announce itself on this host).
    func discoverPeripheral(at address: DeviceAddress, timeout: Duration) async throws -> PeripheralDiscovery
}

/// How a plugin scans.
public struct DiscoveryOptions: Sendable {
    /// How long to wait between two passes over the link (repeated reports refresh RSSI).
    public var interval: Duration
    /// How long to wait for a device to confirm itself.
    public var confirmTimeout: Duration

    /// Creates scan settings: the wait between two passes over the link, and how long a device has
    /// to confirm itself.
    public init(interval: Duration = .milliseconds(500), confirmTimeout: Duration = .seconds(1)) {
        self.interval = interval
        self.confirmTimeout = confirmTimeout
    }
}

extension BleConnectSDK {
    /// Forwards to ``create(_:advertisementData:rssi:)``, for plugins that do not look at the central.
    public func create(
        _ central: Central, _ peripheral: Peripheral, advertisementData: [String: Any]?, rssi: NSNumber?
    ) -> (any FoundDeviceConvertible)? {
        create(peripheral, advertisementData: advertisementData, rssi: rssi)
    }

    /// `nil`: a plugin that implements only the vendor's central form of `create` needs no other.
    public func create(_ peripheral: Peripheral, advertisementData: [String: Any]?, rssi: NSNumber?)
        -> (any FoundDeviceConvertible)?
    {
        nil
    }

    /// A stream that ends at once: a plugin whose devices the SDK does not scan for (a central of
    /// the app's own reports them) need not implement discovery.
    public func discoverPeripherals(options: DiscoveryOptions) -> AsyncStream<PeripheralDiscovery> {
        AsyncStream { $0.finish() }
    }

    /// The default for plugins with one device class: ``classForDeviceModel``, whatever the
    /// product.
    public func classForDeviceModel(product: DeviceProduct) -> any DeviceConvertible.Type { classForDeviceModel }

    /// `name version (build), date`.
    public var sdkVersionDescription: String { "\(sdkName) \(sdkVersion) (\(sdkBuild)), \(sdkReleaseDate)" }

    /// A plugin that cannot reach explicit addresses throws `pluginUnavailable`.
    public func discoverPeripheral(at address: DeviceAddress, timeout: Duration) async throws -> PeripheralDiscovery {
        throw AIBudsError(.pluginUnavailable, "\(sdkName) cannot reach \(address)")
    }
}
