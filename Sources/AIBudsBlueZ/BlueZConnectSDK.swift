import AIBuds
import AIBudsDBus
import AIBudsFoundation
import AIBudsLog
import AIBudsSMP
import AIBudsSync
import Foundation

/// The Bluetooth LE link plugin (the vendor's ABMateSDK in this SDK): finds SMP devices through
/// BlueZ on D-Bus and talks to them with SMP over GATT, as Zephyr's mcumgr does.
///
/// Devices are reported with protocol kind `.abmate`, address `ble://AA:BB:CC:DD:EE:FF` (the BLE
/// address, also their `macAddress`), product and MAC from this project's manufacturer data when
/// advertised. The SMP device classes (``/AIBudsSMP/SMPGlassesDevice`` and the rest) serve them; their sessions
/// run over `BlueZGATTTransport`. Register it beside ``/AIBudsSMP/SMPConnectSDK`` and one scan finds devices
/// on both links (`AIBudsAllInOne` does).
public final class BlueZConnectSDK: SMPLinkPlugin, SMPSessionOpener {
    /// The D-Bus bus BlueZ is on (`DBUS_SYSTEM_BUS_ADDRESS` when set, else the system bus).
    public let busAddress: String
    /// The adapter to use (`hci0`); nil uses the first one BlueZ lists.
    public let adapterName: String?
    /// When a connection calls `Device1.Pair` (``BlueZPairing/whenRequired`` by default).
    public let pairing: BlueZPairing
    private let lastScanProblem = Locked<String?>(nil)

    /// Creates the plugin for the bus at `busAddress` (default: the system bus as above), pairing
    /// with devices as `pairing` says.
    public init(busAddress: String? = nil, adapterName: String? = nil, pairing: BlueZPairing = .whenRequired) {
        self.busAddress = busAddress ?? DBusConnection.systemBusAddress()
        self.adapterName = adapterName
        self.pairing = pairing
    }

    /// `AIBudsBlueZ`.
    public var sdkName: String { "AIBudsBlueZ" }
    /// `.abmate`, the vendor's kind of its BLE protocol: stored BLE devices come back through this plugin.
    public var protocolKind: BleProtocolKind { .abmate }

    /// The last reason a scan could not use BlueZ (adapter missing or off, not permitted), nil
    /// after a scan that could.
    public var scanProblem: String? { lastScanProblem.withLock { $0 } }

    /// Whether the peripheral is a BLE device that offers SMP (by service UUID or manufacturer data).
    public func isKnownDevice(_ peripheral: Peripheral, advertisementData: [String: Any]?, rssi: NSNumber?) -> Bool {
        guard peripheral.address.scheme == "ble" else { return false }
        let advertisement = Advertisement(dictionary: advertisementData)
        return BlueZAdvertisement.parse(advertisement.manufacturerData) != nil
            || advertisement.serviceUUIDs.contains { $0.lowercased() == BlueZ.smpServiceUUID }
    }

    /// The found device: product from the manufacturer data (unknown without), BLE address as MAC.
    public func create(
        _ peripheral: Peripheral, advertisementData: [String: Any]?, rssi: NSNumber?
    ) -> (any FoundDeviceConvertible)? {
        guard isKnownDevice(peripheral, advertisementData: advertisementData, rssi: rssi) else { return nil }
        let advertisement = Advertisement(dictionary: advertisementData)
        let product = BlueZAdvertisement.parse(advertisement.manufacturerData)?.product ?? .unknown
        return FoundDevice(
            peripheral: peripheral, advertisement: advertisement, rssi: rssi?.intValue, product: product,
            macAddress: peripheral.address.host, protocolKind: .abmate)
    }

    /// Discovers LE devices with the SMP service through BlueZ until cancelled; with no bus, no
    /// BlueZ, no adapter or the adapter off the stream ends (the reason in ``scanProblem`` and the log).
    public func discoverPeripherals(options: DiscoveryOptions) -> AsyncStream<PeripheralDiscovery> {
        lastScanProblem.withLock { $0 = nil }
        let problem = lastScanProblem
        let bus = busAddress
        return BlueZScanner(busAddress: busAddress, adapterName: adapterName) { message in
            problem.withLock { $0 = message }
            // No bus or no BlueZ is normal on a machine without Bluetooth: not worth a warning.
            let quiet = message.contains("no D-Bus bus") || message.contains("ServiceUnknown")
            AIBudsSDK.logger.log(quiet ? .debug : .warning, "bluez", "BLE scan on \(bus): \(message)")
        }.stream()
    }

    /// Finds `ble://AA:BB:CC:DD:EE:FF` in BlueZ's tree (discovering up to `timeout` if BlueZ does
    /// not know it yet).
    public func discoverPeripheral(at address: DeviceAddress, timeout: Duration) async throws -> PeripheralDiscovery {
        guard address.scheme == "ble" else { throw AIBudsError(.pluginUnavailable, "\(sdkName) reaches ble:// addresses only") }
        let bus = try await BlueZBus.open(address: busAddress)
        defer { bus.close() }
        let (adapter, objects) = try await bus.poweredAdapter(named: adapterName)
        let path = BlueZ.devicePath(adapter: adapter, address: address.host)
        if let properties = objects[path]?["org.bluez.Device1"], let found = BlueZScanner.discovery(properties) {
            return found
        }
        let stream = BlueZScanner(busAddress: busAddress, adapterName: adapterName) { _ in }.stream()
        let found: PeripheralDiscovery? = await withTaskGroup(of: PeripheralDiscovery?.self) { group in
            group.addTask {
                for await found in stream where found.peripheral.address == address { return found }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        guard let found else { throw AIBudsError(.peripheralUnavailable, "BlueZ found no SMP device \(address) within \(timeout)") }
        return found
    }

    /// Pairs (bonds) with the device at BLE address `address` (`AA:BB:CC:DD:EE:FF`) now, as
    /// `bluetoothctl pair` does; a device paired before is fine. Pairing errors come as SDK codes
    /// (``BlueZ/sdkError(_:_:)``): unknown device 2001, refused or failed 2002, timed out 2006.
    public func pair(address: String) async throws {
        let bus = try await BlueZBus.open(address: busAddress)
        defer { bus.close() }
        let (adapter, objects) = try await bus.poweredAdapter(named: adapterName)
        let path = BlueZ.devicePath(adapter: adapter, address: address)
        guard objects[path]?["org.bluez.Device1"] != nil else {
            throw AIBudsError(.peripheralUnavailable, "BlueZ does not know \(address) (scan for it first)")
        }
        try await BlueZConnector.pair(path, address: address.uppercased(), on: bus, timeout: .seconds(30))
    }

    /// Connects through BlueZ and starts an SMP session over the device's SMP characteristic.
    public func openSMPSession(to peripheral: Peripheral, logger: any LogService) async throws -> SMPDeviceSession {
        let connectTimeout = Duration.seconds(max(AIBudsSDK.sdkConfiguration.connectTimeoutInSeconds, 1))
        let connector = BlueZConnector(
            busAddress: busAddress, adapterName: adapterName, timeout: connectTimeout, logger: logger, pairing: pairing)
        let transport = try await connector.open(address: peripheral.address.host)
        let commandTimeout = Duration.seconds(max(AIBudsSDK.sdkConfiguration.commandTimeoutInSeconds, 0.05))
        return try SMPDeviceSession(
            transport: transport, address: peripheral.address, commandTimeout: commandTimeout,
            eventWait: SMPConnectSDK.defaultEventWait, logger: logger)
    }
}
