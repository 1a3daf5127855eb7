import Foundation

/// Which data-plane addresses a device may send the SDK to (docs/reliability.md): the SDK joins a
/// device's Wi-Fi and hands the session's bearer token only to an address literal on the kind of
/// network a hotspot gives out, so a lying device cannot point it at a public host or a name that
/// DNS could resolve anywhere.
///
/// Allowed: loopback (`127.0.0.0/8`, `::1`, `localhost`: an emulator on this host) and private
/// address literals (`10.0.0.0/8`, `172.16.0.0/12`, `192.168.0.0/16`, link-local `169.254.0.0/16`,
/// `fe80::/10`, unique-local `fc00::/7`). Anything else is refused.
public enum HotspotAddressRule {
    /// Whether `host` (a URL host, IPv6 in brackets or not) is loopback or a private address literal.
    public static func allows(_ host: String) -> Bool {
        LoopbackHotspotJoiner.isLoopback(host) || isPrivateLiteral(host)
    }

    /// Whether `host` is a private IPv4 or IPv6 address literal (not loopback, not a name).
    public static func isPrivateLiteral(_ host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        if let v4 = ipv4(bare) {
            switch (v4[0], v4[1]) {
            case (10, _), (192, 168), (169, 254): return true
            case (172, 16...31): return true
            default: return false
            }
        }
        var address = in6_addr()
        guard bare.contains(":"), inet_pton(AF_INET6, bare, &address) == 1 else { return false }
        let first = address.__in6_u.__u6_addr8.0
        let second = address.__in6_u.__u6_addr8.1
        return first & 0xFE == 0xFC || (first == 0xFE && second & 0xC0 == 0x80)
    }

    /// The four bytes of a dotted-decimal IPv4 literal.
    private static func ipv4(_ text: String) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        let bytes = parts.compactMap { $0.count <= 3 ? UInt8($0) : nil }
        return bytes.count == 4 ? bytes : nil
    }
}
