/// A request whose payload is the empty map: one type for every such command of
/// docs/protocol.md, told apart by `Command`, a tag of ``SMPCommand`` (each request's route is its
/// tag's entry in ``SMPMessageCatalog/routes``), and answered with `Response`. Each command names
/// it under its own alias (for example ``HotspotStateRequest``).
public struct SMPEmptyRequest<Command, Response: Codable & Sendable>: SMPRequest, Equatable {
    /// Creates the request; its payload is the empty map `{}`.
    public init() {}
}

/// A long poll: the device answers at once when it has something newer than `since` (an event
/// sequence number, a media list generation), else holds the request up to `waitMs` milliseconds.
/// One type for every such command, told apart by `Command`, a tag of ``SMPCommand``, answered
/// with `Response` (``DeviceEventsRequest``, ``MediaChangedRequest``).
public struct SMPLongPollRequest<Command, Response: Codable & Sendable>: SMPRequest, Equatable {
    /// The newest sequence number or generation the client knows.
    public var since: UInt64
    /// How long the device may hold the request, in milliseconds (at most 30,000).
    public var waitMs: UInt64

    /// The wire names of the fields (docs/protocol.md).
    enum CodingKeys: String, CodingKey {
        case since
        case waitMs = "wait_ms"
    }

    /// Creates the long poll for what is newer than `since`, held by the device up to `waitMs`
    /// milliseconds.
    public init(since: UInt64, waitMs: UInt64) {
        self.since = since
        self.waitMs = waitMs
    }
}

/// The tags of the requests that share one generic type (``SMPEmptyRequest``,
/// ``SMPLongPollRequest``), one a command, named as the command's request type without `Request`;
/// they are never made, only named.
public enum SMPCommand {
    /// Audio `mic start` write (``AudioMicStartRequest``).
    public enum AudioMicStart {}
    /// Audio `speaker start` write (``AudioSpeakerStartRequest``).
    public enum AudioSpeakerStart {}

    /// Capture `audio stop` write (``CaptureAudioStopRequest``).
    public enum CaptureAudioStop {}
    /// Capture `video start` write (``CaptureVideoStartRequest``).
    public enum CaptureVideoStart {}
    /// Capture `video stop` write (``CaptureVideoStopRequest``).
    public enum CaptureVideoStop {}
    /// Capture `max audio duration` read (``CaptureMaxAudioReadRequest``).
    public enum CaptureMaxAudioRead {}
    /// Capture `max video duration` read (``CaptureMaxVideoReadRequest``).
    public enum CaptureMaxVideoRead {}

    /// Device `events` long poll (``DeviceEventsRequest``).
    public enum DeviceEvents {}
    /// Device `info` read (``DeviceInfoRequest``).
    public enum DeviceInfo {}
    /// Device `battery` read (``DeviceBatteryRequest``).
    public enum DeviceBattery {}
    /// Device `storage` read (``DeviceStorageRequest``).
    public enum DeviceStorage {}
    /// Device `media count` read (``DeviceMediaCountRequest``).
    public enum DeviceMediaCount {}
    /// Device `time` read (``DeviceTimeReadRequest``).
    public enum DeviceTimeRead {}
    /// Device `language` read (``DeviceLanguageReadRequest``).
    public enum DeviceLanguageRead {}
    /// Device `work state` read (``DeviceWorkStateRequest``).
    public enum DeviceWorkState {}
    /// Device `factory reset` write (``DeviceFactoryResetRequest``).
    public enum DeviceFactoryReset {}
    /// Device `format storage` write (``DeviceFormatStorageRequest``).
    public enum DeviceFormatStorage {}
    /// Device `power off` write (``DevicePowerOffRequest``).
    public enum DevicePowerOff {}

    /// Media `changed` long poll (``MediaChangedRequest``).
    public enum MediaChanged {}

    /// Enumeration `count` read (``EnumCountRequest``).
    public enum EnumCount {}
    /// Enumeration `list` read (``EnumListRequest``).
    public enum EnumList {}

    /// File `supported hashes` read (``FileSupportedHashesRequest``).
    public enum FileSupportedHashes {}
    /// File `close` write (``FileCloseRequest``).
    public enum FileClose {}

    /// Hotspot `enter transfer mode` write (``HotspotEnterTransferRequest``).
    public enum HotspotEnterTransfer {}
    /// Hotspot `leave transfer mode` write (``HotspotLeaveTransferRequest``).
    public enum HotspotLeaveTransfer {}
    /// Hotspot `cancel transfer` write (``HotspotCancelTransferRequest``).
    public enum HotspotCancelTransfer {}
    /// Hotspot `state` read (``HotspotStateRequest``).
    public enum HotspotState {}

    /// Image `state` read (``ImageStateReadRequest``).
    public enum ImageStateRead {}
    /// Image `slot info` read (``ImageSlotInfoRequest``).
    public enum ImageSlotInfo {}

    /// OS `datetime` read (``OSDatetimeReadRequest``).
    public enum OSDatetimeRead {}
    /// OS `mcumgr params` read (``OSParamsRequest``).
    public enum OSParams {}
}
