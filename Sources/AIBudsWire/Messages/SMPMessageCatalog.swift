/// Every request message of docs/protocol.md, found by (group, command, operation): what a server
/// needs to decode an incoming request.
public enum SMPMessageCatalog {
    /// Every request of the protocol and where it goes: group, command, operation and the
    /// command's name in docs/protocol.md's tables, grouped as the document lists them. The one
    /// place the protocol's numbers are written: each request type's ``SMPRequest/route`` is its
    /// entry here.
    public static let routes: [(type: any SMPRequest.Type, route: SMPRoute)] = [
        (OSEchoRequest.self, SMPRoute(SMPGroupID.os, 0, .write, "echo")),
        (OSDatetimeReadRequest.self, SMPRoute(SMPGroupID.os, 4, .read, "datetime")),
        (OSDatetimeWriteRequest.self, SMPRoute(SMPGroupID.os, 4, .write, "datetime")),
        (OSResetRequest.self, SMPRoute(SMPGroupID.os, 5, .write, "reset")),
        (OSParamsRequest.self, SMPRoute(SMPGroupID.os, 6, .read, "mcumgr params")),
        (OSInfoRequest.self, SMPRoute(SMPGroupID.os, 7, .read, "os/app info")),
        (ImageStateReadRequest.self, SMPRoute(SMPGroupID.image, 0, .read, "state")),
        (ImageStateWriteRequest.self, SMPRoute(SMPGroupID.image, 0, .write, "state")),
        (ImageUploadRequest.self, SMPRoute(SMPGroupID.image, 1, .write, "upload")),
        (ImageEraseRequest.self, SMPRoute(SMPGroupID.image, 5, .write, "erase")),
        (ImageSlotInfoRequest.self, SMPRoute(SMPGroupID.image, 6, .read, "slot info")),
        (FileDownloadRequest.self, SMPRoute(SMPGroupID.file, 0, .read, "file")),
        (FileUploadRequest.self, SMPRoute(SMPGroupID.file, 0, .write, "file")),
        (FileStatusRequest.self, SMPRoute(SMPGroupID.file, 1, .read, "status")),
        (FileHashRequest.self, SMPRoute(SMPGroupID.file, 2, .read, "hash/checksum")),
        (FileSupportedHashesRequest.self, SMPRoute(SMPGroupID.file, 3, .read, "supported hashes")),
        (FileCloseRequest.self, SMPRoute(SMPGroupID.file, 4, .write, "close")),
        (EnumCountRequest.self, SMPRoute(SMPGroupID.enumeration, 0, .read, "count")),
        (EnumListRequest.self, SMPRoute(SMPGroupID.enumeration, 1, .read, "list")),
        (EnumSingleRequest.self, SMPRoute(SMPGroupID.enumeration, 2, .read, "single")),
        (EnumDetailsRequest.self, SMPRoute(SMPGroupID.enumeration, 3, .read, "details")),
        (DeviceInfoRequest.self, SMPRoute(SMPGroupID.device, 0, .read, "info")),
        (DeviceBatteryRequest.self, SMPRoute(SMPGroupID.device, 1, .read, "battery")),
        (DeviceStorageRequest.self, SMPRoute(SMPGroupID.device, 2, .read, "storage")),
        (DeviceMediaCountRequest.self, SMPRoute(SMPGroupID.device, 3, .read, "media count")),
        (DeviceTimeReadRequest.self, SMPRoute(SMPGroupID.device, 4, .read, "time")),
        (DeviceTimeWriteRequest.self, SMPRoute(SMPGroupID.device, 4, .write, "time")),
        (DeviceLanguageReadRequest.self, SMPRoute(SMPGroupID.device, 5, .read, "language")),
        (DeviceLanguageWriteRequest.self, SMPRoute(SMPGroupID.device, 5, .write, "language")),
        (DeviceWorkStateRequest.self, SMPRoute(SMPGroupID.device, 6, .read, "work state")),
        (DeviceEventsRequest.self, SMPRoute(SMPGroupID.device, 7, .read, "events")),
        (DeviceFactoryResetRequest.self, SMPRoute(SMPGroupID.device, 8, .write, "factory reset")),
        (DevicePowerOffRequest.self, SMPRoute(SMPGroupID.device, 9, .write, "power off")),
        (DeviceFindRequest.self, SMPRoute(SMPGroupID.device, 10, .write, "find")),
        (DeviceSettingReadRequest.self, SMPRoute(SMPGroupID.device, 11, .read, "setting")),
        (DeviceSettingWriteRequest.self, SMPRoute(SMPGroupID.device, 11, .write, "setting")),
        (DeviceActionRequest.self, SMPRoute(SMPGroupID.device, 12, .write, "action")),
        (DeviceFormatStorageRequest.self, SMPRoute(SMPGroupID.device, 13, .write, "format storage")),
        (MediaListRequest.self, SMPRoute(SMPGroupID.media, 0, .read, "list")),
        (MediaDeleteRequest.self, SMPRoute(SMPGroupID.media, 1, .write, "delete")),
        (MediaDeleteAllRequest.self, SMPRoute(SMPGroupID.media, 2, .write, "delete all")),
        (MediaChangedRequest.self, SMPRoute(SMPGroupID.media, 3, .read, "changed")),
        (HotspotConfigureRequest.self, SMPRoute(SMPGroupID.hotspot, 0, .write, "configure")),
        (HotspotEnterTransferRequest.self, SMPRoute(SMPGroupID.hotspot, 1, .write, "enter transfer mode")),
        (HotspotLeaveTransferRequest.self, SMPRoute(SMPGroupID.hotspot, 2, .write, "leave transfer mode")),
        (HotspotStateRequest.self, SMPRoute(SMPGroupID.hotspot, 3, .read, "state")),
        (HotspotCancelTransferRequest.self, SMPRoute(SMPGroupID.hotspot, 4, .write, "cancel transfer")),
        (CaptureAudioStartRequest.self, SMPRoute(SMPGroupID.capture, 0, .write, "audio start")),
        (CaptureAudioStopRequest.self, SMPRoute(SMPGroupID.capture, 1, .write, "audio stop")),
        (CapturePhotoRequest.self, SMPRoute(SMPGroupID.capture, 2, .write, "photo")),
        (CaptureVideoStartRequest.self, SMPRoute(SMPGroupID.capture, 3, .write, "video start")),
        (CaptureVideoStopRequest.self, SMPRoute(SMPGroupID.capture, 4, .write, "video stop")),
        (CaptureMaxAudioReadRequest.self, SMPRoute(SMPGroupID.capture, 5, .read, "max audio duration")),
        (CaptureMaxAudioWriteRequest.self, SMPRoute(SMPGroupID.capture, 5, .write, "max audio duration")),
        (CaptureMaxVideoReadRequest.self, SMPRoute(SMPGroupID.capture, 6, .read, "max video duration")),
        (CaptureMaxVideoWriteRequest.self, SMPRoute(SMPGroupID.capture, 6, .write, "max video duration")),
        (CaptureLensProfileRequest.self, SMPRoute(SMPGroupID.capture, 7, .read, "lens profile")),
        (AudioMicStartRequest.self, SMPRoute(SMPGroupID.audio, 0, .write, "mic start")),
        (AudioMicReadRequest.self, SMPRoute(SMPGroupID.audio, 1, .read, "mic read")),
        (AudioMicStopRequest.self, SMPRoute(SMPGroupID.audio, 2, .write, "mic stop")),
        (AudioSpeakerStartRequest.self, SMPRoute(SMPGroupID.audio, 3, .write, "speaker start")),
        (AudioSpeakerWriteRequest.self, SMPRoute(SMPGroupID.audio, 4, .write, "speaker write")),
        (AudioSpeakerStopRequest.self, SMPRoute(SMPGroupID.audio, 5, .write, "speaker stop")),
        (LiveStartRequest.self, SMPRoute(SMPGroupID.live, 0, .write, "start")),
        (LiveStopRequest.self, SMPRoute(SMPGroupID.live, 1, .write, "stop")),
        (LiveStateRequest.self, SMPRoute(SMPGroupID.live, 2, .read, "state")),
    ]

    /// Every request type, in the order of ``routes``.
    public static let all: [any SMPRequest.Type] = routes.map(\.type)

    /// The route of each request type.
    private static let routeOfType: [ObjectIdentifier: SMPRoute] = Dictionary(
        uniqueKeysWithValues: routes.map { (ObjectIdentifier($0.type), $0.route) })

    /// The route of `type`: its entry in ``routes``.
    public static func route(of type: any SMPRequest.Type) -> SMPRoute {
        guard let route = routeOfType[ObjectIdentifier(type)] else {
            preconditionFailure("\(type) has no entry in SMPMessageCatalog.routes")
        }
        return route
    }

    /// The key of a request in the catalog.
    private struct Key: Hashable {
        var group: UInt16
        var command: UInt8
        var operation: SMPOperation
    }

    private static let byKey: [Key: any SMPRequest.Type] = Dictionary(
        uniqueKeysWithValues: routes.map { (Key(group: $0.route.group, command: $0.route.command, operation: $0.route.operation), $0.type) })

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
