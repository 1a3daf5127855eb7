import AIBudsFoundation
import Foundation

/// A device that scanning just found: not connected, not storable yet.
///
/// Convert it with `AIBudsSDK.makeStorableDeviceFromDiscovered(_:)` to get a ``DeviceConvertible``.
public protocol FoundDeviceConvertible: AnyObject, Sendable {
    /// The device's link handle.
    var peripheral: Peripheral { get }
    /// What the device advertised, with CoreBluetooth's keys (``AdvertisementDataKey``).
    var advertisementData: [String: Any]? { get }
    /// The received signal strength in dBm.
    var RSSI: NSNumber? { get }
    /// Glasses, earbuds, watch, ... as advertised; the SDK creates the device class for it.
    var product: DeviceProduct { get }
    /// The MAC address, when known.
    var macAddress: String? { get }
    /// The link protocol, which selects the plugin.
    var protocolKind: BleProtocolKind { get }
}

extension FoundDeviceConvertible {
    /// The advertised name, else the peripheral's.
    public var name: String? {
        advertisementData?[AdvertisementDataKey.localName] as? String ?? peripheral.name
    }

    /// The advertised manufacturer data.
    public var manufacturerData: Data? {
        advertisementData?[AdvertisementDataKey.manufacturerData] as? Data
    }
}

/// The SDK's own found-device model, which link plugins may return from `create`.
public final class FoundDevice: FoundDeviceConvertible, CustomStringConvertible {
    /// The device's link handle.
    public let peripheral: Peripheral
    /// The advertisement as a typed value.
    public let advertisement: Advertisement
    /// The received signal strength in dBm.
    public let rssi: Int?
    /// Glasses, earbuds, watch, ... as advertised; the SDK creates the device class for it.
    public let product: DeviceProduct
    /// The MAC address, when known.
    public let macAddress: String?
    /// The link protocol.
    public let protocolKind: BleProtocolKind
    /// What the device said about itself when the plugin confirmed it, if it asked.
    public let identity: DeviceIdentity?

    /// Creates the report of one peripheral a scan saw, as a plugin hands it to the SDK's delegate.
    public init(
        peripheral: Peripheral, advertisement: Advertisement, rssi: Int?, product: DeviceProduct,
        macAddress: String?, protocolKind: BleProtocolKind, identity: DeviceIdentity? = nil
    ) {
        self.peripheral = peripheral
        self.advertisement = advertisement
        self.rssi = rssi
        self.product = product
        self.macAddress = macAddress
        self.protocolKind = protocolKind
        self.identity = identity
    }

    /// The advertisement as the vendor's dictionary.
    public var advertisementData: [String: Any]? { advertisement.dictionary }
    /// The received signal strength as the vendor's `NSNumber`.
    public var RSSI: NSNumber? { rssi.map { NSNumber(value: $0) } }

    /// `name (address), product, RSSI`.
    public var description: String {
        "\(name ?? "unnamed") (\(peripheral.address)), \(product), RSSI \(rssi.map(String.init) ?? "?")"
    }
}
