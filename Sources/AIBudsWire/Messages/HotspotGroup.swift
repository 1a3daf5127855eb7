import Foundation

// Messages of the project Hotspot group (66). See docs/protocol.md.

/// Hotspot configure: the Wi-Fi network the device's data plane uses.
public struct HotspotConfigureRequest: SMPRequest, Equatable {
    /// The device answers `configure` with ``HotspotConfigureResponse``; the client decodes the
    /// answer as this type.
    public typealias Response = HotspotConfigureResponse

    /// The `HotspotMode` raw value (station 0, ap 1, wifiDirect 2).
    public var mode: Int
    /// The Wi-Fi channel.
    public var channel: UInt64
    /// The network name.
    public var ssid: String
    /// The passphrase.
    public var password: String

    /// Creates the request that sets up the hotspot: `HotspotMode` raw value `mode`, Wi-Fi
    /// `channel`, network name and passphrase.
    public init(mode: Int, channel: UInt64, ssid: String, password: String) {
        self.mode = mode
        self.channel = channel
        self.ssid = ssid
        self.password = password
    }
}

/// The (empty) answer to ``HotspotConfigureRequest``.
public typealias HotspotConfigureResponse = SMPEmptyResponse

/// Hotspot enter transfer mode: opens the HTTP data plane some time later (needs a configured hotspot, else rc 7).
public typealias HotspotEnterTransferRequest = SMPEmptyRequest<SMPCommand.HotspotEnterTransfer, HotspotEnterTransferResponse>

/// The (empty) answer to ``HotspotEnterTransferRequest``.
public typealias HotspotEnterTransferResponse = SMPEmptyResponse

/// Hotspot leave transfer mode: closes the data plane and voids the token.
public typealias HotspotLeaveTransferRequest = SMPEmptyRequest<SMPCommand.HotspotLeaveTransfer, HotspotLeaveTransferResponse>

/// The (empty) answer to ``HotspotLeaveTransferRequest``.
public typealias HotspotLeaveTransferResponse = SMPEmptyResponse

/// Hotspot cancel transfer: the device ends every data-plane response in flight (an import the app
/// cancelled) and stays in transfer mode, its hotspot and token unchanged; rc 7 when it is not in
/// transfer mode.
public typealias HotspotCancelTransferRequest = SMPEmptyRequest<SMPCommand.HotspotCancelTransfer, HotspotCancelTransferResponse>

/// The (empty) answer to ``HotspotCancelTransferRequest``.
public typealias HotspotCancelTransferResponse = SMPEmptyResponse

/// Hotspot state, with the data plane address and token when open.
public typealias HotspotStateRequest = SMPEmptyRequest<SMPCommand.HotspotState, HotspotStateResponse>

/// The answer to ``HotspotStateRequest``.
public struct HotspotStateResponse: Codable, Sendable, Equatable {
    /// The `HotspotState` raw value (close 0, open 1).
    public var state: Int
    /// The network name.
    public var ssid: String?
    /// The HTTP data plane, `http://HOST:PORT`, when open.
    public var baseURL: String?
    /// The bearer token of this session, when open.
    public var token: String?

    /// The wire names of the fields (docs/protocol.md).
    enum CodingKeys: String, CodingKey {
        case state
        case ssid
        case baseURL = "base_url"
        case token
    }

    /// Creates the answer with a `HotspotState` raw value and, when open, the network, data plane
    /// URL and token, as the emulator sends it.
    public init(state: Int, ssid: String? = nil, baseURL: String? = nil, token: String? = nil) {
        self.state = state
        self.ssid = ssid
        self.baseURL = baseURL
        self.token = token
    }
}
