import AIBudsFoundation
import AIBudsLog
import AIBudsSync
import Foundation

/// The SDK's device model: identity, persistence, lifecycle, delegates, and calls in flight.
///
/// Link plugins subclass it: they override ``openSession(for:)`` and implement the capability
/// protocols with ``perform(_:requiring:_:)``; per-product subclasses declare the capability
/// conformances their product supports. All state is behind locks, so a device may be used from any
/// thread.
open class BaseDevice: DeviceConvertible, @unchecked Sendable, CustomStringConvertible {
    struct Persisted: Codable {
        var uuid: UUID
        var peripheral: Peripheral
        var advertisement: Advertisement
        var rssi: Int?
        var product: DeviceProduct
        var protocolKind: BleProtocolKind
        var macAddress: String?
        var bluetoothName: String?
        var deviceModel: String?
        var deviceSerialNum: String?
        var firmwareVersion: String?
        var capabilities: Set<DeviceCapability> = []
        var lastConnectTime: Date?
        var bindUserId: String?
        var userBindTime: Date?
        var isAlreadyUnbind = false
        var screenName: String?
        var customContent: String?
        var shouldAutoReconnectWhenAppLaunch = true
        var connectContext: ConnectParams?
    }

    struct Runtime {
        var lifecycle: DeviceLifecycle
        var session: (any DeviceSession)?
        weak var delegate: (any DeviceDelegate)?
        var status = DeviceStatus()
        var busyCount = 0
        var readyWaiters: [OneShot<Void>] = []
        var disconnectWaiters: [OneShot<Void>] = []
        var attemptTask: Task<Void, Never>?
        var eventsTask: Task<Void, Never>?
        var reconnectTask: Task<Void, Never>?
        var connectTimer: Task<Void, Never>?
    }

    let persisted: Locked<Persisted>
    let runtime: Locked<Runtime>
    /// The calls running on the current connection.
    public let calls = InFlightCalls()

    /// Creates a device from a found one.
    public required init?(device: any FoundDeviceConvertible) {
        let advertisement = Advertisement(dictionary: device.advertisementData)
        let identity = (device as? FoundDevice)?.identity
        var fields = Persisted(
            uuid: device.peripheral.identifier, peripheral: device.peripheral, advertisement: advertisement,
            rssi: device.RSSI?.intValue, product: device.product, protocolKind: device.protocolKind,
            macAddress: device.macAddress, bluetoothName: device.name)
        if let identity {
            fields.deviceModel = identity.model
            fields.deviceSerialNum = identity.serialNumber
            fields.firmwareVersion = identity.firmwareVersion
            fields.capabilities = identity.capabilities
        }
        persisted = Locked(fields)
        runtime = Locked(Runtime(lifecycle: DeviceLifecycle(policy: AIBudsSDK.sdkConfiguration.reconnectPolicy)))
    }

    /// Decodes a stored device.
    public required init(from decoder: any Decoder) throws {
        persisted = Locked(try Persisted(from: decoder))
        runtime = Locked(Runtime(lifecycle: DeviceLifecycle(policy: AIBudsSDK.sdkConfiguration.reconnectPolicy)))
    }

    /// Encodes the device's identity and app fields (not its connection state).
    public func encode(to encoder: any Encoder) throws {
        try persisted.withLock { $0 }.encode(to: encoder)
    }

    // MARK: Identity

    /// The screen name when set, else the advertised name, else the MAC address.
    public var name: String {
        persisted.withLock { $0.screenName ?? $0.bluetoothName ?? $0.macAddress ?? "Unknown device" }
    }
    /// Equal to `peripheral.identifier`.
    public var uuid: UUID { persisted.withLock { $0.uuid } }
    /// When the device was last ready.
    public var lastConnectTime: Date? { persisted.withLock { $0.lastConnectTime } }
    /// The user bound on the last connect.
    public var bindUserId: String? { persisted.withLock { $0.bindUserId } }
    /// When that user was bound.
    public var userBindTime: Date? { persisted.withLock { $0.userBindTime } }
    /// Whether the device was unpaired.
    public var isAlreadyUnbind: Bool { persisted.withLock { $0.isAlreadyUnbind } }
    /// What the device advertised when found.
    public var advertisementData: [String: Any]? { persisted.withLock { $0.advertisement }.dictionary }
    /// The app's name for the device.
    public var screenName: String? {
        get { persisted.withLock { $0.screenName } }
        set { persisted.withLock { $0.screenName = newValue } }
    }
    /// The app's free-form content.
    public var customContent: String? {
        get { persisted.withLock { $0.customContent } }
        set { persisted.withLock { $0.customContent = newValue } }
    }
    /// Glasses, earbuds, watch, ...: what the device reported when it was found; it picks the
    /// plugin's device class.
    public var product: DeviceProduct { persisted.withLock { $0.product } }
    /// The advertised name.
    public var bluetoothName: String? { persisted.withLock { $0.bluetoothName } }
    /// The hardware address from discovery or the device's info, `AA:BB:CC:DD:EE:FF`; nil when
    /// neither gave one.
    public var macAddress: String? { persisted.withLock { $0.macAddress } }
    /// The model name.
    public var deviceModel: String? { persisted.withLock { $0.deviceModel } }
    /// The serial number.
    public var deviceSerialNum: String? { persisted.withLock { $0.deviceSerialNum } }
    /// The firmware the device reported on its last initialization (kept across launches); nil
    /// before the first connection.
    public var firmwareVersion: String? { persisted.withLock { $0.firmwareVersion } }
    /// The advertised manufacturer data.
    public var manufacturerData: Data? { persisted.withLock { $0.advertisement.manufacturerData } }
    /// The capabilities the device reported on its last initialization (or discovery).
    public var capabilities: Set<DeviceCapability> { persisted.withLock { $0.capabilities } }
    /// The device's link handle.
    public var peripheral: Peripheral { persisted.withLock { $0.peripheral } }
    /// The link protocol.
    public var protocolKind: BleProtocolKind { persisted.withLock { $0.protocolKind } }
    /// The parameters of the last connect.
    public var connectContext: ConnectParams? { persisted.withLock { $0.connectContext } }
    /// Whether the device is connected when stored devices are loaded at launch.
    public var shouldAutoReconnectWhenAppLaunch: Bool {
        get { persisted.withLock { $0.shouldAutoReconnectWhenAppLaunch } }
        set { persisted.withLock { $0.shouldAutoReconnectWhenAppLaunch = newValue } }
    }

    /// Points the device at a new address (a device that moved, for example an emulator restarted on
    /// another port); takes effect on the next connection.
    public func updatePeripheral(_ peripheral: Peripheral) {
        persisted.withLock { $0.peripheral = peripheral }
    }

    // MARK: State

    /// The link state.
    public var connectionState: PeripheralState { runtime.withLock { $0.lifecycle.peripheralState } }
    /// The lifecycle state; `busy` while a long operation runs on a ready device.
    public var deviceState: DeviceState {
        runtime.withLock { rt in
            let state = rt.lifecycle.deviceState
            return state == .idle && rt.busyCount > 0 ? .busy : state
        }
    }
    /// The lifecycle state machine's own state.
    public var lifecycleState: DeviceLifecycle.State { runtime.withLock { $0.lifecycle.state } }
    /// Whether the device is ready for commands.
    public var isConnectedAndReady: Bool { runtime.withLock { $0.lifecycle.state == .ready } }
    /// Whether a long operation is running.
    public var isBusy: Bool { runtime.withLock { $0.busyCount > 0 } }
    /// The per-device delegate, held weakly.
    public var delegate: (any DeviceDelegate)? {
        get { runtime.withLock { $0.delegate } }
        set { runtime.withLock { $0.delegate = newValue } }
    }
    /// The last known values of the device's states.
    public var currentStatus: DeviceStatus { runtime.withLock { $0.status } }

    /// Changes the cached status (after a query or a command that changes it).
    public func updateStatus(_ body: (inout DeviceStatus) -> Void) {
        runtime.withLock { body(&$0.status) }
    }

    /// Marks a long operation as running (`deviceState` becomes `busy`); balance with ``endBusy()``.
    public func beginBusy() { runtime.withLock { $0.busyCount += 1 } }
    /// Marks a long operation as finished.
    public func endBusy() { runtime.withLock { $0.busyCount = max(0, $0.busyCount - 1) } }

    /// The SDK's logger.
    public var logger: any LogService { AIBudsSDK.logger }

    /// `name (address), state`.
    public var description: String { "\(name) (\(peripheral.address)), \(deviceState)" }

    // MARK: For subclasses

    /// Opens a session to the device; link plugins override this. The default throws `pluginUnavailable`.
    open func openSession(for params: ConnectParams) async throws -> any DeviceSession {
        throw AIBudsError(.pluginUnavailable, "\(type(of: self)) cannot open a connection")
    }

    /// Runs a command on the ready device's session as a call in flight: it fails with
    /// `deviceNotConnected` or `deviceNotReady` when the device is not ready, with `deviceNotSupport`
    /// when the device lacks `capability`, and with the disconnection's error if the device disconnects
    /// before it ends.
    public func perform<Session: DeviceSession, Value: Sendable>(
        _ sessionType: Session.Type, requiring capability: DeviceCapability?,
        _ command: @escaping @Sendable (Session) async throws -> Value
    ) async throws -> Value {
        let session = try readySession(sessionType)
        if let capability, !capabilities.contains(capability) {
            throw AIBudsError(.deviceNotSupport, "\(name) does not support \(capability)")
        }
        return try await calls.run { try await command(session) }
    }

    /// The session of the ready device, as the plugin's session type.
    public func readySession<Session: DeviceSession>(_ sessionType: Session.Type) throws -> Session {
        let (state, session) = runtime.withLock { ($0.lifecycle.state, $0.session) }
        switch state {
        case .ready:
            guard let typed = session as? Session else {
                throw AIBudsError(.deviceNotReady, "\(name) has no \(Session.self)")
            }
            return typed
        case .connecting, .connected, .initializing:
            throw AIBudsError(.deviceNotReady, "\(name) is not ready yet")
        case .disconnected, .disconnecting, .waitingToReconnect:
            throw AIBudsError(.deviceNotConnected, "\(name) is not connected")
        }
    }
}
