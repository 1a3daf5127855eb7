import AIBudsFoundation

/// A state change a device pushed (docs/protocol.md §3, Device `events`), or a state value read from
/// it, as the SDK's models.
public enum DeviceStateEvent: Sendable, Equatable {
    /// Battery level or charging changed.
    case battery(BatteryStatusInfoModel)
    /// The work state changed.
    case workState(WorkState)
    /// Storage use changed.
    case storage(StorageInfoModel)
    /// Media counts changed.
    case mediaCount(MediaCountInfoModel)
    /// The hotspot state changed.
    case hotspotState(HotspotState)
    /// The hotspot's data-plane address is known.
    case hotspotAddress(String)
    /// The media list changed: its generation and the media types whose lists changed.
    case mediaChanged(generation: UInt64, types: [MediaFileType])
    /// The firmware version changed.
    case firmwareVersion(String)
    /// The UI language changed.
    case language(DeviceLanguage)
    /// A long deletion made progress.
    case fileDeletingProgress(FileDeletingProgressEvent)
    /// The languages the device offers (a setting read at initialization; no delegate callback).
    case supportedLanguages([DeviceLanguage])
    /// The longest audio recording in seconds (a setting; no delegate callback).
    case maxAudioRecordDuration(Int)
    /// The longest video recording in seconds (a setting; no delegate callback).
    case maxVideoRecordDuration(Int)
}
