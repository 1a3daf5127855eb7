import AIBudsFoundation
import Foundation

/// The one handle an app keeps for a device: identity, state, and lifecycle operations.
///
/// Operations run on the device itself, not through a manager. Devices are `Codable` (the vendor's
/// `NSSecureCoding`), which is how ``StoredDevicesMgr`` keeps them across launches. Capabilities are
/// separate protocols refining ``DeviceAPI``; cast to them (`device as? DeviceInfoAPI`).
public protocol DeviceConvertible: AnyObject, Sendable, Codable {
    /// The name to show: the screen name when set, else the device's name.
    var name: String { get }
    /// The SDK's identifier of this device; equal to `peripheral.identifier`.
    var uuid: UUID { get }
    /// When the device was last connected and ready.
    var lastConnectTime: Date? { get }
    /// The user the device was bound to on connect (`ConnectParams.userId`).
    var bindUserId: String? { get }
    /// When the device was bound to that user.
    var userBindTime: Date? { get }
    /// Whether the device was unpaired.
    var isAlreadyUnbind: Bool { get }
    /// What the device advertised when it was found.
    var advertisementData: [String: Any]? { get }
    /// A name the app chose for the device.
    var screenName: String? { get set }
    /// Free-form content the app stores with the device.
    var customContent: String? { get set }
    /// Glasses, earbuds, watch, ...: it decides which capability protocols the device class
    /// declares.
    var product: DeviceProduct { get }
    /// The name the device advertises on its link.
    var bluetoothName: String? { get }
    /// The hardware address, `AA:BB:CC:DD:EE:FF`, when discovery or the device's info gave one.
    var macAddress: String? { get }
    /// The model name, known after the first connection.
    var deviceModel: String? { get }
    /// The serial number, known after the first connection.
    var deviceSerialNum: String? { get }
    /// The firmware version, known after the first connection.
    var firmwareVersion: String? { get }
    /// The advertised manufacturer data.
    var manufacturerData: Data? { get }
    /// The state of the link.
    var connectionState: PeripheralState { get }
    /// Where the device is in its lifecycle.
    var deviceState: DeviceState { get }
    /// Whether the device is connected and accepts commands.
    var isConnectedAndReady: Bool { get }
    /// Whether a long operation (an import, an OTA) is running.
    var isBusy: Bool { get }
    /// The per-device delegate; held weakly.
    var delegate: (any DeviceDelegate)? { get set }
    /// The parameters of the last `connect(_:)`.
    var connectContext: ConnectParams? { get }
    /// Whether the SDK connects this device when the app launches (`StoredDevicesMgr` load).
    var shouldAutoReconnectWhenAppLaunch: Bool { get set }
    /// The device's link handle (project addition; replaces the vendor's `CBPeripheral`).
    var peripheral: Peripheral { get }
    /// The link protocol, which selects the plugin (project addition).
    var protocolKind: BleProtocolKind { get }

    /// Creates a storable device from a found one; `nil` when the found device is not this plugin's.
    init?(device: any FoundDeviceConvertible)

    /// Starts connecting; progress arrives through the delegates (connecting, connected, ready).
    func connect(_ params: ConnectParams)
    /// Closes the connection; the delegates get `didDisconnectWithError` with a `nil` error.
    func disconnect()
    /// Disconnects, marks the device unbound and removes it from ``StoredDevicesMgr``.
    func unpair()
    /// Saves the device's current fields through ``StoredDevicesMgr`` (adding it when it is not stored).
    func save()

    /// Connects and returns when the device is ready, or throws why it could not be made ready.
    func connectAndWait(_ params: ConnectParams) async throws
    /// Disconnects and returns when the link is closed.
    func disconnectAndWait() async
}
