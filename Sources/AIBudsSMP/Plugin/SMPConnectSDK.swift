import AIBuds
import AIBudsFoundation
import AIBudsLog
import AIBudsSync
import AIBudsWire
import Foundation

/// The SMP link plugin: finds devices that speak SMP over UDP and makes their device models.
///
/// Scanning lists the emulator announcements on this host (docs/protocol.md §5), skips those of
/// processes that are gone, and confirms each with a Device `info` request; every pass reports each
/// confirmed device again (the SDK marks repeats with `isExistingDevice`). A device elsewhere is found
/// by address with `AIBudsSDK.discoverDevice(at: "udp://HOST:PORT")`.
public final class SMPConnectSDK: SMPLinkPlugin {
    /// How long a Device `events` long-poll waits by default.
    public static let defaultEventWait: Duration = .seconds(5)

    /// The announcement folder scanned (`nil`: the default runtime folder).
    public let discoveryDirectory: URL?
    /// How long a Device `events` long-poll waits; a lost link is noticed after this plus the command timeout.
    public let eventWait: Duration
    private let identities = Locked<[UUID: DeviceIdentity]>([:])

    /// Creates the plugin.
    public init(discoveryDirectory: URL? = nil, eventWait: Duration = SMPConnectSDK.defaultEventWait) {
        self.discoveryDirectory = discoveryDirectory
        self.eventWait = min(max(eventWait, .milliseconds(100)), .seconds(30))
    }

    /// `AIBudsSMP`.
    public var sdkName: String { "AIBudsSMP" }
    /// `.smp`: stored devices with this kind come back through this plugin.
    public var protocolKind: BleProtocolKind { .smp }

    /// Whether the advertisement carries this plugin's manufacturer data.
    public func isKnownDevice(_ peripheral: Peripheral, advertisementData: [String: Any]?, rssi: NSNumber?) -> Bool {
        SMPAdvertisement.parse(Advertisement(dictionary: advertisementData).manufacturerData) != nil
    }

    /// The found device, with the identity the device confirmed while scanning.
    public func create(
        _ peripheral: Peripheral, advertisementData: [String: Any]?, rssi: NSNumber?
    ) -> (any FoundDeviceConvertible)? {
        let advertisement = Advertisement(dictionary: advertisementData)
        guard let (product, mac) = SMPAdvertisement.parse(advertisement.manufacturerData) else { return nil }
        return FoundDevice(
            peripheral: peripheral, advertisement: advertisement, rssi: rssi?.intValue, product: product,
            macAddress: mac, protocolKind: .smp, identity: identities.withLock { $0[peripheral.identifier] })
    }

    /// Scans the announcement folder every `options.interval`, confirming each device with Device `info`.
    public func discoverPeripherals(options: DiscoveryOptions) -> AsyncStream<PeripheralDiscovery> {
        let discovery = SMPDiscovery(directory: discoveryDirectory)
        return AsyncStream { continuation in
            let task = Task {
                while !Task.isCancelled {
                    let announcements = discovery.announcements()
                    await withTaskGroup(of: PeripheralDiscovery?.self) { group in
                        for announcement in announcements {
                            group.addTask { await self.confirm(announcement, timeout: options.confirmTimeout) }
                        }
                        for await found in group {
                            if let found, !Task.isCancelled { continuation.yield(found) }
                        }
                    }
                    try? await Task.sleep(for: options.interval)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Asks the device at `address` for its Device `info`; an address of another kind than
    /// `udp://` is `pluginUnavailable` (another plugin's to reach).
    public func discoverPeripheral(at address: DeviceAddress, timeout: Duration) async throws -> PeripheralDiscovery {
        guard address.scheme == "udp" else { throw AIBudsError(.pluginUnavailable, "\(sdkName) reaches udp:// addresses only") }
        let identity = try await Self.identify(address, timeout: timeout)
        return remember(identity, at: address, rssi: nil)
    }

    private func confirm(_ announcement: DiscoveryAnnouncement, timeout: Duration) async -> PeripheralDiscovery? {
        guard let address = DeviceAddress(announcement.address),
            let identity = try? await Self.identify(address, timeout: timeout)
        else { return nil }
        return remember(identity, at: address, rssi: announcement.rssi)
    }

    private func remember(_ identity: DeviceIdentity, at address: DeviceAddress, rssi: Int?) -> PeripheralDiscovery {
        let peripheral = Peripheral(stableKey: identity.macAddress, address: address, name: identity.name)
        identities.withLock { $0[peripheral.identifier] = identity }
        return PeripheralDiscovery(
            peripheral: peripheral,
            advertisement: SMPAdvertisement.make(name: identity.name, product: identity.product, mac: identity.macAddress),
            rssi: rssi, identity: identity)
    }

    private static func identify(_ address: DeviceAddress, timeout: Duration) async throws -> DeviceIdentity {
        let session = try SMPDeviceSession(
            address: address, commandTimeout: timeout, eventWait: .seconds(1), logger: AIBudsSDK.logger)
        defer { session.client.close() }
        return try await session.readIdentity(timeout: timeout)
    }
}

extension SMPDevice {
    /// The class that declares a product's capability protocols: glasses, earbuds and watch have
    /// their own; any other product gets ``SMPDevice`` (whatever the link, UDP or BLE).
    public static func deviceClass(for product: DeviceProduct) -> any DeviceConvertible.Type {
        switch product {
        case .glasses: SMPGlassesDevice.self
        case .earbuds: SMPEarbudsDevice.self
        case .watch: SMPWatchDevice.self
        default: SMPDevice.self
        }
    }
}
