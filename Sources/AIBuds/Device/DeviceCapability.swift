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
    /// `DeviceOtaAPI`: main firmware updates (SMP Image group, image 0).
    public static let ota: DeviceCapability = "ota"
    /// `DeviceCameraOtaAPI`: camera module firmware updates (SMP Image group, image 1).
    public static let cameraOta: DeviceCapability = "cameraOta"
    /// `DeviceCommonAPI`.
    public static let common: DeviceCapability = "common"
    /// `DeviceFindAPI`.
    public static let find: DeviceCapability = "find"
    /// `DeviceFindAPI.reportPhoneFound()`: the wearer can ask the device to find the phone.
    public static let findPhone: DeviceCapability = "findPhone"
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
    /// AI audio recordings of `DeviceAudioRecordingAPI` (`requestStartAIAudioRecording`).
    public static let aiAudioRecording: DeviceCapability = "audioRecording.ai"
    /// `DeviceAIAudioAPI`: the microphone and speaker streams of the AI audio path.
    public static let aiAudio: DeviceCapability = "aiAudio"
    /// `DeviceWorkModeAPI`.
    public static let workMode: DeviceCapability = "workMode"
    /// `DeviceVolumeControlAPI`.
    public static let volume: DeviceCapability = "volume"
    /// `DeviceEqualizerAPI`.
    public static let equalizer: DeviceCapability = "equalizer"
    /// `DeviceANCAPI`.
    public static let anc: DeviceCapability = "anc"
    /// `DeviceWearDetectionAPI`.
    public static let wearDetection: DeviceCapability = "wearDetection"
    /// `DeviceTWSAPI`.
    public static let tws: DeviceCapability = "tws"
    /// `DeviceMusicControlAPI`.
    public static let musicControl: DeviceCapability = "musicControl"
    /// `DevicePhysicalOperationsAPI`.
    public static let physicalOperations: DeviceCapability = "physicalOperations"
    /// `DeviceRemoteShutterAPI`.
    public static let remoteShutter: DeviceCapability = "remoteShutter"
    /// `DeviceAppsAPI`.
    public static let apps: DeviceCapability = "apps"
    /// `DeviceServiceAuthAPI`.
    public static let serviceAuth: DeviceCapability = "serviceAuth"
    /// `OnDeviceVoiceAssistantAPI`.
    public static let voiceAssistant: DeviceCapability = "voiceAssistant"
    /// `TeleprompterAPI`.
    public static let teleprompter: DeviceCapability = "teleprompter"
    /// `TurnByTurnNavigationAPI`.
    public static let navigation: DeviceCapability = "navigation"

    /// The wire name.
    public var description: String { rawValue }
}
