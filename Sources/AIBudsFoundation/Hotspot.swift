/// How the device's Wi-Fi is configured for a media transfer.
public enum HotspotMode: Int, Sendable, Codable, CaseIterable {
    /// The device joins an existing network.
    case station = 0
    /// The device opens its own access point.
    case ap = 1
    /// Wi-Fi Direct.
    case wifiDirect = 2
}

/// The state of the device's hotspot.
public enum HotspotState: Int, Sendable, Codable, CaseIterable, LenientIntEnum {
    /// Raw value -1: not reported yet, or a raw value this SDK does not define.
    case unknown = -1
    /// Raw value 0: the hotspot is off and its data plane cannot be reached.
    case hotspotClose = 0
    /// The hotspot is open; its data plane can be reached.
    case hotspotOpen = 1
    /// Wi-Fi Direct is open.
    case wifiDirectOpen = 2
    /// A Wi-Fi Direct peer is connected.
    case wifiDirectConnected = 3
    /// Wi-Fi Direct failed.
    case wifiDirectFailed = 4
    /// Wi-Fi Direct timed out.
    case wifiDirectTimeout = 5

    /// ``unknown``, what ``LenientIntEnum/init(lenientRawValue:)`` gives for a raw value this SDK does not define.
    public static var unknownCase: HotspotState { .unknown }
}
