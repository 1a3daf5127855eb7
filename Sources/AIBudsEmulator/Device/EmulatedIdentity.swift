import AIBudsDigest
import Foundation

/// Who an emulated device says it is in Device `info`: derived from its name, so the same name
/// always gives the same serial number and MAC address. (The SDK's `DeviceIdentity` is the client's
/// reading of that response.)
public struct EmulatedIdentity: Sendable, Equatable {
    /// The advertised name.
    public var name: String
    /// The serial number.
    public var serial: String
    /// The Bluetooth MAC address, `XX:XX:XX:XX:XX:XX` (locally administered).
    public var mac: String

    /// The identity of a device named `name` of the given profile.
    public init(name: String, profile: DeviceProfile.Kind) {
        self.name = name
        let digest = SHA256.hash(Data("\(profile.rawValue)/\(name)".utf8))
        let prefix: String
        switch profile {
        case .glasses: prefix = "AG"
        case .earbuds: prefix = "AE"
        case .watch: prefix = "AW"
        }
        serial = prefix + digest.prefix(6).hexString.uppercased()
        var macBytes = Array(digest.suffix(6))
        macBytes[0] = (macBytes[0] & 0xFC) | 0x02
        mac = macBytes.map { String(format: "%02X", $0) }.joined(separator: ":")
    }
}
