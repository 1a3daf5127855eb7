import AIBuds
import AIBudsFoundation
import Foundation

/// What the media import engine needs from a device: the media channel, the hotspot, and an
/// identity for the import ledger.
///
/// The hotspot operations come from ``/AIBuds/DeviceHotspotAPI``, the media list, deletion and the
/// device-side hash from ``/AIBuds/MediaControlChannel``. A device class adopts it (the SMP glasses do) and
/// provides its own engine (``MediaImportEngineProvider/mediaImport``, for example a
/// ``LazyMediaImportEngine`` it stores), and so gets ``/AIBuds/DeviceMediaFileImportAPI`` from that engine.
public protocol MediaImportControlChannel: MediaControlChannel, DeviceHotspotAPI, MediaImportEngineProvider {
    /// A stable identifier of the device (its serial number when known) for the import ledger and
    /// the default import folder.
    var mediaImportDeviceID: String { get }

    /// Marks the device busy while an import runs (its `deviceState` shows `busy`); calls nest.
    func beginBusy()
    /// Ends one ``beginBusy()``.
    func endBusy()

    /// The camera's lens profile as the device describes it (Gyroflow's lens-profile JSON), for the
    /// stabilization of its videos; nil when the device has none.
    func cameraLensProfile() async throws -> Data?
}

extension MediaImportControlChannel {
    /// Nothing: a channel that is not a device has no busy state to show.
    public func beginBusy() {}
    /// Nothing: a channel that is not a device has no busy state to show.
    public func endBusy() {}
    /// None: a channel that does not say otherwise has no lens profile to give.
    public func cameraLensProfile() async throws -> Data? { nil }
}
