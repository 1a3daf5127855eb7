/// Every request message of docs/protocol.md, found by (group, command, operation): what a server
/// needs to decode an incoming request.
public enum SMPMessageCatalog {
    /// Every request type, grouped as docs/protocol.md lists them.
    public static let all: [any SMPRequest.Type] = [
        OSEchoRequest.self,
        OSDatetimeReadRequest.self,
        OSDatetimeWriteRequest.self,
        OSResetRequest.self,
        OSParamsRequest.self,
        OSInfoRequest.self,
        FileDownloadRequest.self,
        FileUploadRequest.self,
        FileStatusRequest.self,
        FileHashRequest.self,
        FileSupportedHashesRequest.self,
        FileCloseRequest.self,
        EnumCountRequest.self,
        EnumListRequest.self,
        EnumSingleRequest.self,
        EnumDetailsRequest.self,
        DeviceInfoRequest.self,
        DeviceBatteryRequest.self,
        DeviceStorageRequest.self,
        DeviceMediaCountRequest.self,
        DeviceTimeReadRequest.self,
        DeviceTimeWriteRequest.self,
        DeviceLanguageReadRequest.self,
        DeviceLanguageWriteRequest.self,
        DeviceWorkStateRequest.self,
        DeviceEventsRequest.self,
        DeviceFactoryResetRequest.self,
        DevicePowerOffRequest.self,
        DeviceFindRequest.self,
        DeviceSettingReadRequest.self,
        DeviceSettingWriteRequest.self,
        DeviceActionRequest.self,
        MediaListRequest.self,
        MediaDeleteRequest.self,
        MediaDeleteAllRequest.self,
        MediaChangedRequest.self,
        HotspotConfigureRequest.self,
        HotspotEnterTransferRequest.self,
        HotspotLeaveTransferRequest.self,
        HotspotStateRequest.self,
        CaptureAudioStartRequest.self,
        CaptureAudioStopRequest.self,
        CapturePhotoRequest.self,
        CaptureVideoStartRequest.self,
        CaptureVideoStopRequest.self,
        CaptureMaxAudioReadRequest.self,
        CaptureMaxAudioWriteRequest.self,
        CaptureMaxVideoReadRequest.self,
        CaptureMaxVideoWriteRequest.self,
        AudioMicStartRequest.self,
        AudioMicReadRequest.self,
        AudioMicStopRequest.self,
        AudioSpeakerStartRequest.self,
        AudioSpeakerWriteRequest.self,
        AudioSpeakerStopRequest.self,
    ]

    /// The key of a request in the catalog.
    private struct Key: Hashable {
        var group: UInt16
        var command: UInt8
        var operation: SMPOperation
    }

    private static let byKey: [Key: any SMPRequest.Type] = Dictionary(
        uniqueKeysWithValues: all.map { (Key(group: $0.group, command: $0.command, operation: $0.operation), $0) })

    /// The request type of a (group, command, operation), or nil when the protocol has none
    /// (the server answers rc 8, ENOTSUP). Response operations have no request type.
    public static func requestType(group: UInt16, command: UInt8, operation: SMPOperation) -> (any SMPRequest.Type)? {
        byKey[Key(group: group, command: command, operation: operation)]
    }

    /// The request type of a request packet's header.
    public static func requestType(for header: SMPHeader) -> (any SMPRequest.Type)? {
        requestType(group: header.group, command: header.command, operation: header.operation)
    }
}
