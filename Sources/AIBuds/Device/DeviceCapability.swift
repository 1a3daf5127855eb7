/// A capability a device reports in its Device `info` response (docs/protocol.md §3), naming the
/// capability protocol it supports. It codes as the bare name (`RawRepresentable`'s standard coding).
public struct DeviceCapability: RawRepresentable, Hashable, Codable, Sendable, CustomStringConvertible,
    ExpressibleByStringLiteral
{
    /// The name on the wire.
    public var rawValue: String

    /// Creates a capability from its wire name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Creates a capability from a string literal.
    public init(stringLiteral value: String) { rawValue = value }

    /// `DeviceInfoAPI`.
    public static let info: DeviceCapability = "info"
    /// `DeviceCommonAPI`.
    public static let common: DeviceCapability = "common"
    /// `DeviceFindAPI`.
    public static let find: DeviceCapability = "find"
    /// `DeviceWorkStateAPI`.
    public static let workState: DeviceCapability = "workState"
    /// `DeviceHotspotAPI`.
    public static let hotspot: DeviceCapability = "hotspot"
    /// `DeviceMediaFileImportAPI`.
    public static let mediaImport: DeviceCapability = "mediaImport"
    /// `DeviceAudioRecordingAPI`.
    public static let audioRecording: DeviceCapability = "audioRecording"
    /// `DeviceCameraAPI`.
    public static let camera: DeviceCapability = "camera"
    /// Media files over the control link (TopStep's `TSMediaFile`).
    public static let mediaFile: DeviceCapability = "mediaFile"

    /// The wire name.
    public var description: String { rawValue }
}
