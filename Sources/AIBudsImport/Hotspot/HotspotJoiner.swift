import AIBudsErrors
import Foundation

/// The device hotspot to join: its network name, passphrase and the data-plane address it serves.
///
/// The passphrase never appears in a description, a debug description or a mirror, so that logging
/// a value of this type (or an error holding one) cannot leak it.
public struct HotspotNetwork: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The network name (SSID) the device reported.
    public var ssid: String
    /// The WPA passphrase the SDK configured on the device.
    public var passphrase: String
    /// The HTTP data plane the device serves on this network, for example `http://192.168.4.1:8080`.
    public var baseURL: URL

    /// Creates a network description.
    public init(ssid: String, passphrase: String, baseURL: URL) {
        self.ssid = ssid
        self.passphrase = passphrase
        self.baseURL = baseURL
    }

    /// `ssid` and `baseURL`; the passphrase is redacted.
    public var description: String { "HotspotNetwork(ssid: \(ssid), passphrase: <redacted>, baseURL: \(baseURL))" }
    /// Same as `description`.
    public var debugDescription: String { description }
    /// A mirror without the passphrase.
    public var customMirror: Mirror {
        Mirror(self, children: ["ssid": ssid, "passphrase": "<redacted>", "baseURL": baseURL])
    }
}

/// Joins the host to a device hotspot, so that its HTTP data plane becomes reachable.
///
/// The import engine calls `join` after the device reports its hotspot open. Implementations:
/// `LoopbackHotspotJoiner` (the emulator, whose "hotspot" is a loopback address) and
/// `NetworkManagerHotspotJoiner` (real hardware on Linux, through `nmcli`).
public protocol HotspotJoiner: Sendable {
    /// Joins `network`; throws a `HotspotJoinError` when the host cannot reach it.
    func join(_ network: HotspotNetwork) async throws
}


/// Why joining a device hotspot failed; its message never contains the passphrase.
///
/// The kinds of failure are ``HotspotJoinErrorCode``.
public typealias HotspotJoinError = CodedError<HotspotJoinErrorCode>

/// The kind of failure.
public enum HotspotJoinErrorCode: Sendable, Equatable, CodedErrorCode {
    /// The data-plane address is not one this joiner can reach.
    case unreachableAddress
    /// The network tool (`nmcli`) is not installed or not on the search path.
    case toolNotFound
    /// The network tool ran and reported failure with this exit status.
    case toolFailed(exitStatus: Int32)
    /// The network tool did not finish in time and was stopped.
    case timedOut
    /// The calling task was cancelled while the network tool ran; the tool was killed.
    case cancelled
}
