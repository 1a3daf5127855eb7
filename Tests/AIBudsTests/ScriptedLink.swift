import AIBudsFoundation
import AIBudsSync
import Foundation
@testable import AIBuds

// A deterministic in-process link for the core's unit tests: a plugin that reports fixed
// discoveries, and sessions whose events and failures the test drives. The SMP plugin is tested
// against real emulators in SMPDeviceTests.

/// A session the test drives: it pushes events and breaks the link.
final class ScriptedSession: DeviceSession {
    let identity: DeviceIdentity
    private let events: AsyncThrowingStream<[DeviceStateEvent], any Error>
    private let continuation: AsyncThrowingStream<[DeviceStateEvent], any Error>.Continuation
    let closed = OneShot<Void>()

    init(identity: DeviceIdentity) {
        self.identity = identity
        (events, continuation) = AsyncThrowingStream.makeStream()
    }

    func readIdentity() async throws -> DeviceIdentity { identity }

    func readInitialState(capabilities: Set<DeviceCapability>) async throws -> [DeviceStateEvent] {
        [.battery(BatteryStatusInfoModel(level: 80, isCharging: false)), .workState(.btOrBleConnectedIdle)]
    }

    func nextEvents() async throws -> [DeviceStateEvent] {
        var iterator = events.makeAsyncIterator()
        return try await iterator.next() ?? []
    }

    func push(_ events: DeviceStateEvent...) { continuation.yield(events) }
    func breakLink() { continuation.finish(throwing: AIBudsError(.bleCommandExecFailedDueToTimeout, "link lost")) }

    /// A command that never answers by itself.
    func hang() async throws -> Int {
        try await Task.sleep(for: .seconds(60))
        return 0
    }

    func close() async {
        continuation.finish()
        closed.succeed(())
    }
}

/// Sessions handed out per MAC address; a test sets whether the next open fails.
final class ScriptedLinkRegistry: Sendable {
    static let shared = ScriptedLinkRegistry()
    private struct State {
        var sessions: [String: [ScriptedSession]] = [:]
        var failOpen: Set<String> = []
    }
    private let state = Locked(State())

    func open(mac: String, identity: DeviceIdentity) throws -> ScriptedSession {
        try state.withLock { state in
            if state.failOpen.contains(mac) { throw AIBudsError(.peripheralUnavailable, "scripted: unreachable") }
            let session = ScriptedSession(identity: identity)
            state.sessions[mac, default: []].append(session)
            return session
        }
    }

    func sessions(mac: String) -> [ScriptedSession] { state.withLock { $0.sessions[mac] ?? [] } }
    func setUnreachable(_ mac: String, _ unreachable: Bool) {
        state.withLock { state in
            if unreachable { state.failOpen.insert(mac) } else { state.failOpen.remove(mac) }
        }
    }
}

/// A device of the scripted link.
class ScriptedDevice: BaseDevice, @unchecked Sendable {
    override func openSession(for params: ConnectParams) async throws -> any DeviceSession {
        let mac = macAddress ?? ""
        let identity = DeviceIdentity(
            name: bluetoothName ?? "Scripted", product: product, model: "SC-1", serialNumber: "SN\(mac.suffix(2))",
            firmwareVersion: "1.0.0", macAddress: mac, capabilities: [.info, .common], mtu: 1024)
        return try ScriptedLinkRegistry.shared.open(mac: mac, identity: identity)
    }

    func run<Value: Sendable>(_ body: @escaping @Sendable (ScriptedSession) async throws -> Value) async throws -> Value {
        try await perform(ScriptedSession.self, requiring: .info, body)
    }
}

/// The scripted earbuds class, with fewer conformances.
final class ScriptedEarbuds: ScriptedDevice, @unchecked Sendable {}

/// A plugin that reports fixed peripherals every 50 ms.
final class ScriptedPlugin: BleConnectSDK {
    let discoveries: [PeripheralDiscovery]
    /// What ``discoverPeripheral(at:timeout:)`` throws: the plugin's own error type, or nil for
    /// the SDK's `pluginUnavailable`.
    let addressError: (any Error)?
    init(_ discoveries: [PeripheralDiscovery], addressError: (any Error)? = nil) {
        self.discoveries = discoveries
        self.addressError = addressError
    }

    var sdkVersion: String { "1.0" }
    var sdkBuild: String { "7" }
    var sdkReleaseDate: String { "2025-01-01" }
    var sdkName: String { "Scripted" }
    var providerName: String { "Tests" }
    var protocolKind: BleProtocolKind { .smp }
    var classForDeviceModel: any DeviceConvertible.Type { ScriptedDevice.self }
    func classForDeviceModel(product: DeviceProduct) -> any DeviceConvertible.Type {
        product == .earbuds ? ScriptedEarbuds.self : ScriptedDevice.self
    }
    func setSDKDelegate(_ delegate: (any SDKDelegate)?) {}
    func isKnownDevice(_ peripheral: Peripheral, advertisementData: [String: Any]?, rssi: NSNumber?) -> Bool {
        (advertisementData?[AdvertisementDataKey.manufacturerData] as? Data)?.first == 0xFF
    }
    func create(_ peripheral: Peripheral, advertisementData: [String: Any]?, rssi: NSNumber?) -> (any FoundDeviceConvertible)? {
        let ad = Advertisement(dictionary: advertisementData)
        let product = DeviceProduct(lenientRawValue: Int(ad.manufacturerData?.last ?? 0))
        return FoundDevice(
            peripheral: peripheral, advertisement: ad, rssi: rssi?.intValue, product: product,
            macAddress: peripheral.name.map { "AA:00:00:00:00:\($0.suffix(2))" }, protocolKind: .smp)
    }
    func discoverPeripheral(at address: DeviceAddress, timeout: Duration) async throws -> PeripheralDiscovery {
        throw addressError ?? AIBudsError(.pluginUnavailable, "Scripted cannot reach \(address)")
    }
    func discoverPeripherals(options: DiscoveryOptions) -> AsyncStream<PeripheralDiscovery> {
        let discoveries = self.discoveries
        return AsyncStream { continuation in
            let task = Task {
                while !Task.isCancelled {
                    for discovery in discoveries { continuation.yield(discovery) }
                    try? await Task.sleep(for: .milliseconds(50))
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    static func discovery(_ suffix: String, product: DeviceProduct, known: Bool = true) -> PeripheralDiscovery {
        let name = "Scripted-\(suffix)"
        return PeripheralDiscovery(
            peripheral: Peripheral(stableKey: name, address: DeviceAddress(host: "127.0.0.1", port: 40000 + (UInt16(suffix) ?? 0)), name: name),
            advertisement: Advertisement(
                localName: name, manufacturerData: Data([known ? 0xFF : 0x00, 0xFF, UInt8(product.rawValue)])),
            rssi: -40)
    }
}
