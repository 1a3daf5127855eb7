import AIBudsFoundation

/// One step of preparing a media import, in the order `fetchMediaFiles` reports them.
///
/// The sequence ends after ``listed(_:)``; a failing step ends it by throwing an `AIBudsError` whose
/// code names the step (6004 configure, 6005 transfer mode, 6006 hotspot, …).
public enum MediaFetchEvent: Sendable, Equatable {
    /// Configuring the device hotspot (SSID and passphrase) started.
    case configuringHotspot
    /// The device accepted the hotspot configuration.
    case hotspotConfigured
    /// Switching the device into file-transfer mode started.
    case enteringTransferMode
    /// The device is in file-transfer mode.
    case transferModeEntered
    /// The SDK is waiting for the device to report its hotspot open.
    case waitingForHotspot
    /// Joining the device hotspot with this SSID started.
    case joiningHotspot(ssid: String)
    /// The host joined the device hotspot.
    case hotspotJoined
    /// The device's media list: the models that are valid import inputs.
    case listed([MediaFileInfoModel])
}

/// A step of `fetchMediaFiles` that can fail, so that a failure can be reported against it.
public enum MediaFetchStep: Sendable, Equatable {
    /// Sending the hotspot's mode, channel, network name and fresh passphrase to the device.
    case configureHotspot
    /// Entering file-transfer mode.
    case enterTransferMode
    /// Waiting for the hotspot to open.
    case waitForHotspot
    /// Connecting this machine to the device's Wi-Fi network through the ``HotspotJoiner``.
    case joinHotspot
    /// Listing the media files.
    case listMedia
}

extension MediaFetchEvent {
    /// The step this event begins, if it begins one.
    var beginsStep: MediaFetchStep? {
        switch self {
        case .configuringHotspot: .configureHotspot
        case .enteringTransferMode: .enterTransferMode
        case .waitingForHotspot: .waitForHotspot
        case .joiningHotspot: .joinHotspot
        case .hotspotJoined: .listMedia
        case .hotspotConfigured, .transferModeEntered, .listed: nil
        }
    }
}
