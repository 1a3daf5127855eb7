import AIBudsFoundation
import Foundation
@testable import AIBuds

/// A found device with a MAC-derived peripheral, as a plugin would report it.
func makeFoundDevice(
    mac: String, name: String = "Test Glasses", product: DeviceProduct = .glasses, port: UInt16 = 1337
) -> FoundDevice {
    let peripheral = Peripheral(stableKey: mac, address: DeviceAddress(host: "127.0.0.1", port: port), name: name)
    return FoundDevice(
        peripheral: peripheral, advertisement: Advertisement(localName: name, manufacturerData: Data([0xFF, 0xFF, 2])),
        rssi: -50, product: product, macAddress: mac, protocolKind: .smp)
}
