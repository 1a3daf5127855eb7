import Foundation

// Messages of the project Hotspot group (66). See docs/protocol.md.

/// Hotspot configure: the Wi-Fi network the device's data plane uses.
public struct HotspotConfigureRequest: SMPRequest, Equatable {
    /// The answer.
    public typealias Response = HotspotConfigureResponse
    /// The Hotspot group.
    public static let group = SMPGroupID.hotspot
    /// Command 0.
    public static let command: UInt8 = 0
    /// A write.
    public static let operation = SMPOperation.write

    /// The `HotspotMode` raw value (station 0, ap 1, wifiDirect 2).
    public var mode: Int
    /// The Wi-Fi channel.
    public var channel: UInt64
    /// The network name.
    public var ssid: String
    /// The passphrase.
    public var password: String

    /// Creates the message.
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
public struct HotspotEnterTransferRequest: SMPRequest, Equatable {
    /// The answer.
    public typealias Response = HotspotEnterTransferResponse
    /// The Hotspot group.
    public static let group = SMPGroupID.hotspot
    /// Command 1.
    public static let command: UInt8 = 1
    /// A write.
    public static let operation = SMPOperation.write

    /// Creates the message.
    public init() {}
}

/// The (empty) answer to ``HotspotEnterTransferRequest``.
public typealias HotspotEnterTransferResponse = SMPEmptyResponse

/// Hotspot leave transfer mode: closes the data plane and voids the token.
public struct HotspotLeaveTransferRequest: SMPRequest, Equatable {
    /// The answer.
    public typealias Response = HotspotLeaveTransferResponse
    /// The Hotspot group.
    public static let group = SMPGroupID.hotspot
    /// Command 2.
    public static let command: UInt8 = 2
    /// A write.
    public static let operation = SMPOperation.write

    /// Creates the message.
    public init() {}
}

/// The (empty) answer to ``HotspotLeaveTransferRequest``.
public typealias HotspotLeaveTransferResponse = SMPEmptyResponse

/// Hotspot state, with the data plane address and token when open.
public struct HotspotStateRequest: SMPRequest, Equatable {
    /// The answer.
    public typealias Response = HotspotStateResponse
    /// The Hotspot group.
    public static let group = SMPGroupID.hotspot
    /// Command 3.
    public static let command: UInt8 = 3
    /// A read.
    public static let operation = SMPOperation.read

    /// Creates the message.
    public init() {}
}

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

    /// Creates the message.
    public init(state: Int, ssid: String? = nil, baseURL: String? = nil, token: String? = nil) {
        self.state = state
        self.ssid = ssid
        self.baseURL = baseURL
        self.token = token
    }
}
