import AIBuds
import AIBudsEmulator
import AIBudsFoundation
import AIBudsLog
import AIBudsNet
import AIBudsSMP
import AIBudsSync
import AIBudsTestKit
import Foundation
import Testing

@testable import AIBudsBlueZ

/// Records a device's connection events.
private final class ConnectionEvents: DeviceDelegate {
    private let log = Locked<[String]>([])
    var events: [String] { log.withLock { $0 } }
    private func record(_ event: String) { log.withLock { $0.append(event) } }
    func didStartConnectingDevice(_ device: any DeviceConvertible) { record("connecting") }
    func didConnectedToDevice(_ device: any DeviceConvertible) { record("connected") }
    func didFailToConnectDevice(_ device: any DeviceConvertible, error: NSError?) { record("failed \(error?.code ?? 0)") }
    func device(_ device: any DeviceConvertible, didDisconnectWithError error: NSError?) { record("disconnected \(error?.code ?? 0)") }
    func deviceDidReady(_ device: any DeviceConvertible) { record("ready") }
}

/// The device core over the BlueZ plugin: one scan over both links, the SMP device classes over
/// GATT, and the auto-reconnect after `Connected` went false.
@Suite(.sdkState(.exclusive), .timeLimit(.minutes(2))) struct BlueZSDKTests {
    @Test func oneScanFindsBothLinksAndABLEDeviceReconnectsAfterALinkLoss() async throws {
        AIBudsSDK.resetForTesting()
        defer { AIBudsSDK.resetForTesting() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bluez-sdk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let ble = try await BlueZFixture.start(profile: .earbuds, link: .ble)
        var udpConfiguration = EmulatorConfiguration()
        udpConfiguration.profile = .watch
        udpConfiguration.listen = SocketAddress(host: "127.0.0.1", port: 0)
        udpConfiguration.mediaSeeds = []
        udpConfiguration.discoveryDirectory = folder.appendingPathComponent("announcements")
        let udp = try Emulator(configuration: udpConfiguration)
        try udp.start()
        defer { udp.stop() }

        let configuration = SDKConfiguration.default()
        configuration.logService = RecordingLogService(minimumLevel: .info)
        configuration.commandTimeoutInSeconds = 2
        configuration.connectTimeoutInSeconds = 5
        configuration.storedDevicesURL = folder.appendingPathComponent("devices.json")
        configuration.reconnectPolicy = ReconnectPolicy(
            maximumAttempts: 40, initialDelay: .milliseconds(100), maximumDelay: .milliseconds(300))
        let plugins: [any BleConnectSDK] = [
            SMPConnectSDK(discoveryDirectory: udpConfiguration.discoveryDirectory, eventWait: .milliseconds(400)),
            BlueZConnectSDK(busAddress: ble.bus.address),
        ]
        #expect(AIBudsSDK.initialize(plugins, configuration: configuration))

        let found = try await AIBudsSDK.scan(timeout: 2)
        let overBLE = try #require(found.first { $0.protocolKind == .abmate })
        #expect(found.contains { $0.protocolKind == .smp && $0.peripheral.address.scheme == "udp" })
        #expect(overBLE.peripheral.address.description == ble.deviceAddress)
        #expect(overBLE.macAddress == ble.standIn.address && overBLE.product == .earbuds)
        #expect(overBLE.RSSI?.intValue == -60)

        let device = try #require(AIBudsSDK.makeStorableDeviceFromDiscovered(overBLE))
        #expect(device is SMPEarbudsDevice)
        let events = ConnectionEvents()
        device.delegate = events
        try await device.connectAndWait(ConnectParams())
        let info = try #require(device as? DeviceInfoAPI)
        // The battery the device reports, read over GATT (not just any number).
        let battery = ble.emulator.device.battery()
        let status = try await info.requestQueryBatteryStatus()
        #expect(status.level.intValue == battery.level)

        ble.standIn.dropLink()
        try await eventually("the expected state") { events.events.contains { $0.hasPrefix("disconnected") } }
        try await eventually("the expected state") { events.events.last == "ready" && ble.standIn.isConnected }
        #expect(Array(events.events.suffix(3)) == ["connecting", "connected", "ready"])
        #expect(try await info.requestQueryBatteryStatus().level.intValue == ble.emulator.device.battery().level)
        await device.disconnectAndWait()
        try await eventually("the expected state") { !ble.standIn.isConnected }
        await ble.stop()
    }
}
