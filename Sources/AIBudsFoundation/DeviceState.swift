/// Where a device is in its connection lifecycle, as apps see it.
public enum DeviceState: Int, Sendable, Codable, CaseIterable, LenientIntEnum {
    /// Raw value -1: not reported yet, or a raw value this SDK does not define.
    case unknown = -1
    /// A connection is being set up.
    case connecting = 0
    /// The link is up; the device is not initialized yet.
    case connected = 1
    /// The SDK is reading the device's information.
    case initializing = 2
    /// Ready for commands and idle.
    case idle = 3
    /// Ready, with a long operation (an import, an OTA) running.
    case busy = 4
    /// The link is being closed.
    case disconnecting = 5
    /// Not connected.
    case disconnected = 6

    /// ``unknown``, what ``LenientIntEnum/init(lenientRawValue:)`` gives for a raw value this SDK does not define.
    public static var unknownCase: DeviceState { .unknown }

    /// Whether the device accepts commands in this state (`idle` or `busy`).
    public var isReady: Bool { self == .idle || self == .busy }
}
