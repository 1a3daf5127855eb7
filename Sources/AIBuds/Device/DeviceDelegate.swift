import AIBudsFoundation
import Foundation

/// Receives one device's connection events and state changes; every method has an empty default.
///
/// Set it with `device.delegate = self`; the device holds it weakly. Callbacks arrive in order on the
/// SDK's callback queue (`SDKConfiguration.callbackQueue`), not necessarily the main queue.
public protocol DeviceDelegate: AnyObject, Sendable {
    /// A connection attempt began (the app's `connect`, or the first attempt of an automatic
    /// reconnection); the link is not up yet.
    func didStartConnectingDevice(_ device: any DeviceConvertible)
    /// The link is up; the SDK now initializes the device.
    func didConnectedToDevice(_ device: any DeviceConvertible)
    /// Connecting or initializing failed.
    func didFailToConnectDevice(_ device: any DeviceConvertible, error: NSError?)
    /// The device disconnected; `error` is `nil` when the app asked for it.
    func device(_ device: any DeviceConvertible, didDisconnectWithError error: NSError?)
    /// The device is ready for commands.
    func deviceDidReady(_ device: any DeviceConvertible)

    /// The battery level or charging state changed.
    func device(_ device: any DeviceConvertible, didBatteryStatusChanged status: BatteryStatusInfoModel)
    /// The device reported doing something else (recording, transferring files, idle, ...);
    /// the device's cached status (``BaseDevice/currentStatus``) already holds `state`.
    func device(_ device: any DeviceConvertible, didWorkStateChanged state: WorkState)
    /// An audio device switched between normal and low-latency mode (`workMode` event).
    func device(_ device: any DeviceConvertible, didWorkModeChanged mode: WorkMode)
    /// Files were added or deleted: `info` holds the new numbers of photos, videos and audio files.
    func device(_ device: any DeviceConvertible, didMediaCountInfoChanged info: MediaCountInfoModel)
    /// The storage use changed.
    func device(_ device: any DeviceConvertible, didStorageInfoChanged info: StorageInfoModel)
    /// The device's Wi-Fi hotspot opened or closed (`state`), for example on entering or leaving
    /// transfer mode.
    func device(_ device: any DeviceConvertible, didHotspotStateChanged state: HotspotState)
    /// The device reported its hotspot's data-plane address.
    func device(_ device: any DeviceConvertible, didReceiveHotspotAddress address: String)
    /// The firmware version changed (after an update).
    func device(_ device: any DeviceConvertible, didFirmwareVersionChanged version: String)
    /// A long deletion made progress.
    func device(_ device: any DeviceConvertible, didReceiveFileDeletingProgressEvent event: FileDeletingProgressEvent)
    /// The device's media list changed: its new generation and the media types whose lists changed
    /// (project addition, from the `mediaChanged` event).
    func device(_ device: any DeviceConvertible, didMediaFilesChanged generation: UInt64, types: [MediaFileType])
    /// The UI language changed.
    func device(_ device: any DeviceConvertible, didLanguageChanged language: DeviceLanguage)
    /// Noise cancellation switched to `mode` (`anc` event, when the mode changed).
    func device(_ device: any DeviceConvertible, didAncModeChanged mode: AncMode)
    /// The equalizer preset changed.
    func device(_ device: any DeviceConvertible, didEqualizerModeChanged mode: EqualizerMode)
    /// The device was put on or taken off (`wear` event, when the combined status changed).
    func device(_ device: any DeviceConvertible, didWearStatusChanged status: WearStatus)
    /// The two earbuds of a pair connected to or lost each other (`tws` event, when the link changed).
    func device(_ device: any DeviceConvertible, didTWSConnectionStateChanged state: TWSConnectionState)
    /// The media volume changed.
    func device(_ device: any DeviceConvertible, didVolumeChanged volume: NSNumber)
    /// Any state event the device pushed, after its specific callback above (project addition): the
    /// one place to hear media session, key presses, wake words, apps, teleprompter and navigation.
    func device(_ device: any DeviceConvertible, didReceiveStateEvent event: DeviceStateEvent)
}

extension DeviceDelegate {
    // docs: empty defaults, so that a delegate implements only the callbacks it needs
    public func didStartConnectingDevice(_ device: any DeviceConvertible) {}
    public func didConnectedToDevice(_ device: any DeviceConvertible) {}
    public func didFailToConnectDevice(_ device: any DeviceConvertible, error: NSError?) {}
    public func device(_ device: any DeviceConvertible, didDisconnectWithError error: NSError?) {}
    public func deviceDidReady(_ device: any DeviceConvertible) {}
    public func device(_ device: any DeviceConvertible, didBatteryStatusChanged status: BatteryStatusInfoModel) {}
    public func device(_ device: any DeviceConvertible, didWorkStateChanged state: WorkState) {}
    public func device(_ device: any DeviceConvertible, didWorkModeChanged mode: WorkMode) {}
    public func device(_ device: any DeviceConvertible, didMediaCountInfoChanged info: MediaCountInfoModel) {}
    public func device(_ device: any DeviceConvertible, didStorageInfoChanged info: StorageInfoModel) {}
    public func device(_ device: any DeviceConvertible, didHotspotStateChanged state: HotspotState) {}
    public func device(_ device: any DeviceConvertible, didReceiveHotspotAddress address: String) {}
    public func device(_ device: any DeviceConvertible, didFirmwareVersionChanged version: String) {}
    public func device(
        _ device: any DeviceConvertible, didReceiveFileDeletingProgressEvent event: FileDeletingProgressEvent
    ) {}
    public func device(_ device: any DeviceConvertible, didMediaFilesChanged generation: UInt64, types: [MediaFileType]) {}
    public func device(_ device: any DeviceConvertible, didLanguageChanged language: DeviceLanguage) {}
    public func device(_ device: any DeviceConvertible, didAncModeChanged mode: AncMode) {}
    public func device(_ device: any DeviceConvertible, didEqualizerModeChanged mode: EqualizerMode) {}
    public func device(_ device: any DeviceConvertible, didWearStatusChanged status: WearStatus) {}
    public func device(_ device: any DeviceConvertible, didTWSConnectionStateChanged state: TWSConnectionState) {}
    public func device(_ device: any DeviceConvertible, didVolumeChanged volume: NSNumber) {}
    public func device(_ device: any DeviceConvertible, didReceiveStateEvent event: DeviceStateEvent) {}
}
