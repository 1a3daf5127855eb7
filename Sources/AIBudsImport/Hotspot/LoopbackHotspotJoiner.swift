import Foundation

/// The joiner for an emulated device: its hotspot is a loopback address, so there is nothing to
/// join; it only checks that the device's data plane really is on this host.
public struct LoopbackHotspotJoiner: HotspotJoiner {
    /// Creates a joiner; it has no settings, and joining never touches the network configuration.
    public init() {}

    /// Succeeds when `network.baseURL` names a loopback host (127.0.0.0/8, `::1`, `localhost`).
    public func join(_ network: HotspotNetwork) async throws {
        guard let host = network.baseURL.host, Self.isLoopback(host) else {
            throw HotspotJoinError(
                .unreachableAddress,
                "the loopback joiner cannot reach \(network.baseURL.absoluteString): not a loopback address")
        }
    }

    /// Whether `host` is a loopback name or address.
    static func isLoopback(_ host: String) -> Bool {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased()
        if bare == "localhost" || bare == "::1" { return true }
        let parts = bare.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts.allSatisfy({ UInt8($0) != nil }) else { return false }
        return parts[0] == "127"
    }
}
