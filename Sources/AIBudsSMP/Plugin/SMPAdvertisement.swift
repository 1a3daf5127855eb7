import AIBuds
import AIBudsFoundation
import Foundation

/// The advertisement the SMP plugin reports for a device: its name, the SMP service UUID, and
/// manufacturer data carrying the product and the MAC address.
///
/// Manufacturer data: company identifier `0xFFFF` (little-endian; the Bluetooth SIG's value for
/// tests), the bytes `A B`, one byte of `DeviceProduct` raw value (two's complement), and the six MAC bytes.
enum SMPAdvertisement {
    /// Zephyr's SMP GATT service UUID.
    static let smpServiceUUID = "8D53DC1D-1DB7-4CD3-868B-8A527460AA84"
    private static let prefix: [UInt8] = [0xFF, 0xFF, 0x41, 0x42]

    /// The advertisement of a device.
    static func make(name: String, product: DeviceProduct, mac: String) -> Advertisement {
        Advertisement(
            localName: name, manufacturerData: manufacturerData(product: product, mac: mac),
            serviceUUIDs: [smpServiceUUID], isConnectable: true)
    }

    /// Encodes product and MAC address.
    static func manufacturerData(product: DeviceProduct, mac: String) -> Data {
        var bytes = prefix
        bytes.append(UInt8(bitPattern: Int8(clamping: product.rawValue)))
        bytes.append(contentsOf: macBytes(mac) ?? [UInt8](repeating: 0, count: 6))
        return Data(bytes)
    }

    /// Decodes product and MAC address; `nil` when the data is not this plugin's.
    static func parse(_ data: Data?) -> (product: DeviceProduct, mac: String)? {
        guard let data, data.count == prefix.count + 7, Array(data.prefix(prefix.count)) == prefix else { return nil }
        let bytes = Array(data)
        let product = DeviceProduct(lenientRawValue: Int(Int8(bitPattern: bytes[prefix.count])))
        let mac = bytes[(prefix.count + 1)...].map { String(format: "%02X", $0) }.joined(separator: ":")
        return (product, mac)
    }

    /// The six bytes of `AA:BB:CC:DD:EE:FF` (any separator); `nil` when it is not a MAC address.
    static func macBytes(_ mac: String) -> [UInt8]? {
        let hex = DeviceStore.normalizedMACKey(mac)
        guard hex.count == 12 else { return nil }
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }
}
