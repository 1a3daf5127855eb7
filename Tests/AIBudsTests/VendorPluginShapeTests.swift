import AIBuds
import AIBudsFoundation
import Foundation
import Testing

/// A third-party plugin written to the vendor's protocol: only the central form of `create`, no
/// discovery of its own.
private final class CentralOnlyPlugin: BleConnectSDK {
    var sdkVersion: String { "1" }
    var sdkBuild: String { "1" }
    var sdkReleaseDate: String { "2026-01-01" }
    var sdkName: String { "CentralOnly" }
    var providerName: String { "test" }
    var protocolKind: BleProtocolKind { .fitcloudPro }
    var classForDeviceModel: any DeviceConvertible.Type { BaseDevice.self }
    func setSDKDelegate(_ delegate: (any SDKDelegate)?) {}
    func isKnownDevice(_ peripheral: Peripheral, advertisementData: [String: Any]?, rssi: NSNumber?) -> Bool { true }
    func create(_ central: Central, _ peripheral: Peripheral, advertisementData: [String: Any]?, rssi: NSNumber?)
        -> (any FoundDeviceConvertible)?
    {
        FoundDevice(peripheral: peripheral, advertisement: Advertisement(localName: central.identifier), rssi: rssi?.intValue,
                    product: .ring, macAddress: nil, protocolKind: .fitcloudPro)
    }
}

@Suite struct VendorPluginShapeTests {
    @Test func aPluginNeedsNeitherDiscoveryNorTheOldCreate() async throws {
        let plugin = CentralOnlyPlugin()
        var reports = 0
        for await _ in plugin.discoverPeripherals(options: DiscoveryOptions()) { reports += 1 }
        #expect(reports == 0)
        let peripheral = Peripheral(stableKey: "AA:BB:CC:DD:EE:01", address: try DeviceAddress(parsing: "ble://AA:BB:CC:DD:EE:01"))
        let adapter = Central(identifier: "/org/bluez/hci1", address: "00:1A:7D:DA:71:13")
        let found = plugin.create(adapter, peripheral, advertisementData: nil, rssi: NSNumber(value: -40))
        #expect(found?.name == "/org/bluez/hci1")
        #expect(plugin.create(peripheral, advertisementData: nil, rssi: nil) == nil)
        #expect(peripheral.address.description == "ble://AA:BB:CC:DD:EE:01")
        #expect(DeviceAddress("ble://AA:BB:CC:DD:EE") == nil)
    }
}
