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
    /// The work mode changed (normal or low latency).
    case workMode(WorkMode)
    /// The media volume or its maximum changed.
    case volume(level: Int, max: Int?)
    /// The equalizer preset or the custom bands changed; `bandRange` is the gain limit in dB.
    case equalizer(mode: EqualizerMode, bands: [Int], bandRange: ClosedRange<Int>?)
    /// The noise cancellation mode, its gain (0–10) or its fade (ms) changed.
    case anc(mode: AncMode, gain: Int?, fade: Int?)
    /// Wear detection was switched, or a bud was put on or taken off.
    case wear(enabled: Bool, status: WearStatus, left: WearStatus, right: WearStatus)
    /// The pair's link, batteries or case changed.
    case tws(TWSStatusModel)
    /// The media session played, paused or changed track.
    case mediaSession(MediaSessionModel)
    /// The function of a physical operation changed.
    case physicalOperationMapping([PhysicalOperation: PhysicalOperationFunction])
    /// The remote shutter was switched on or off.
    case remoteShutter(enabled: Bool)
    /// The on-device voice assistant was switched on or off.
    case voiceAssistant(enabled: Bool)
    /// An on-device app started or stopped.
    case apps([DeviceAppModel])
    /// The service authorization changed.
    case serviceAuth(state: ServiceAuthState, attempts: Int)
    /// The teleprompter opened, closed, or turned a page.
    case teleprompter(TeleprompterStateModel)
    /// The navigation instruction on the display changed; nil when navigation ended.
    case navigation(NavigationInstruction?)
    /// The navigation alert on the display changed; nil when none is shown.
    case navigationAlert(NavigationAlert?)
    /// The wearer asked the glasses to find the phone (`true`: ring it), or the search ended
    /// (`false`: the app reported the phone found).
    case findPhone(searching: Bool)
    /// The camera module's firmware version (a value read at initialization).
    case cameraFirmwareVersion(String)
    /// The wearer did a physical operation on `side` (`left`, `right` or `device`).
    case physicalOperation(side: String, operation: PhysicalOperation)
    /// The on-device voice assistant heard its wake word.
    case wakeWord(String)
    /// The wearer pressed the shutter while remote shutter was on: the app should take its photo.
    case remoteShutterPressed
}
