/// The device's hotspot as its `state` query reports it (docs/protocol.md §3, Hotspot group).
///
/// `token` is the bearer token of the transfer session; ``description`` never shows it.
public struct HotspotStatusInfo: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Whether the hotspot is open.
    public var state: HotspotState
    /// The hotspot's SSID, when configured.
    public var ssid: String?
    /// The data plane's root URL, `http://HOST:PORT`, when open.
    public var baseUrl: String?
    /// The bearer token of this transfer session, when open.
    public var token: String?

    /// Creates the status from a Hotspot `state` answer: the state and, while open, the network
    /// name, data plane URL and bearer token.
    public init(state: HotspotState, ssid: String? = nil, baseUrl: String? = nil, token: String? = nil) {
        self.state = state
        self.ssid = ssid
        self.baseUrl = baseUrl
        self.token = token
    }

    /// State, SSID and base URL; the token is shown as `<redacted>`.
    public var description: String {
        "\(state), ssid \(ssid ?? "-"), base \(baseUrl ?? "-"), token \(token == nil ? "-" : "<redacted>")"
    }
}
