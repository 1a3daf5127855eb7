import AIBudsFoundation
import Foundation

/// Receives one device's connection events and state changes; every method has an empty default.
///
/// Set it with `device.delegate = self`; the device holds it weakly. Callbacks arrive in order on the
/// SDK's callback queue (`SDKConfiguration.callbackQueue`), not necessarily the main queue.
public protocol DeviceDelegate: AnyObject, Sendable {
    /// The device started connecting.
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
    /// The work state changed.
    func device(_ device: any DeviceConvertible, didWorkStateChanged state: WorkState)
    /// The work mode changed.
    func device(_ device: any DeviceConvertible, didWorkModeChanged mode: WorkMode)
    /// The media counts changed.
    func device(_ device: any DeviceConvertible, didMediaCountInfoChanged info: MediaCountInfoModel)
    /// The storage use changed.
    func device(_ device: any DeviceConvertible, didStorageInfoChanged info: StorageInfoModel)
    /// The hotspot state changed.
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
    /// The ANC mode changed.
    func device(_ device: any DeviceConvertible, didAncModeChanged mode: AncMode)
    /// The equalizer preset changed.
    func device(_ device: any DeviceConvertible, didEqualizerModeChanged mode: EqualizerMode)
    /// The wear status changed.
    func device(_ device: any DeviceConvertible, didWearStatusChanged status: WearStatus)
    /// The TWS connection state changed.
    func device(_ device: any DeviceConvertible, didTWSConnectionStateChanged state: TWSConnectionState)
    /// The media volume changed.
    func device(_ device: any DeviceConvertible, didVolumeChanged volume: NSNumber)
}

extension DeviceDelegate {
    /// Does nothing.
    public func didStartConnectingDevice(_ device: any DeviceConvertible) {}
    /// Does nothing.
    public func didConnectedToDevice(_ device: any DeviceConvertible) {}
    /// Does nothing.
    public func didFailToConnectDevice(_ device: any DeviceConvertible, error: NSError?) {}
    /// Does nothing.
    public func device(_ device: any DeviceConvertible, didDisconnectWithError error: NSError?) {}
    /// Does nothing.
    public func deviceDidReady(_ device: any DeviceConvertible) {}
    /// Does nothing.
    public func device(_ device: any DeviceConvertible, didBatteryStatusChanged status: BatteryStatusInfoModel) {}
    /// Does nothing.
    public func device(_ device: any DeviceConvertible, didWorkStateChanged state: WorkState) {}
    /// Does nothing.
    public func device(_ device: any DeviceConvertible, didWorkModeChanged mode: WorkMode) {}
    /// Does nothing.
    public func device(_ device: any DeviceConvertible, didMediaCountInfoChanged info: MediaCountInfoModel) {}
    /// Does nothing.
    public func device(_ device: any DeviceConvertible, didStorageInfoChanged info: StorageInfoModel) {}
    /// Does nothing.
    public func device(_ device: any DeviceConvertible, didHotspotStateChanged state: HotspotState) {}
    /// Does nothing.
    public func device(_ device: any DeviceConvertible, didReceiveHotspotAddress address: String) {}
    /// Does nothing.
    public func device(_ device: any DeviceConvertible, didFirmwareVersionChanged version: String) {}
    /// Does nothing.
    public func device(
        _ device: any DeviceConvertible, didReceiveFileDeletingProgressEvent event: FileDeletingProgressEvent
    ) {}
    /// Does nothing.
    public func device(_ device: any DeviceConvertible, didMediaFilesChanged generation: UInt64, types: [MediaFileType]) {}
    /// Does nothing.
    public func device(_ device: any DeviceConvertible, didLanguageChanged language: DeviceLanguage) {}
    /// Does nothing.
    public func device(_ device: any DeviceConvertible, didAncModeChanged mode: AncMode) {}
    /// Does nothing.
    public func device(_ device: any DeviceConvertible, didEqualizerModeChanged mode: EqualizerMode) {}
    /// Does nothing.
    public func device(_ device: any DeviceConvertible, didWearStatusChanged status: WearStatus) {}
    /// Does nothing.
    public func device(_ device: any DeviceConvertible, didTWSConnectionStateChanged state: TWSConnectionState) {}
    /// Does nothing.
    public func device(_ device: any DeviceConvertible, didVolumeChanged volume: NSNumber) {}
}
