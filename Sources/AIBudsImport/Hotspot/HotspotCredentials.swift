/// A fresh SSID and WPA2 passphrase for one transfer session.
struct HotspotCredentials: Sendable {
    /// The network name, `<prefix><4 hex digits>`.
    var ssid: String
    /// A 20-character passphrase from an unambiguous alphabet (about 115 bits).
    var passphrase: String

    private static let alphabet = Array("abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789")

    /// Makes new random credentials.
    static func generate(ssidPrefix: String, using generator: inout some RandomNumberGenerator) -> HotspotCredentials {
        let suffix = String(UInt16.random(in: .min ... .max, using: &generator), radix: 16, uppercase: true)
        let padded = String(repeating: "0", count: 4 - suffix.count) + suffix
        let passphrase = String((0..<20).map { _ in alphabet.randomElement(using: &generator)! })
        return HotspotCredentials(ssid: ssidPrefix + padded, passphrase: passphrase)
    }

    /// Makes new credentials from the system's secure random source.
    static func generate(ssidPrefix: String) -> HotspotCredentials {
        var generator = SystemRandomNumberGenerator()
        return generate(ssidPrefix: ssidPrefix, using: &generator)
    }
}
