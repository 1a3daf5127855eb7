import AIBuds

/// AI glasses over SMP: camera, hotspot, audio recording, find, work state, and media import over
/// the hotspot with the engine the device owns.
public final class SMPGlassesDevice: SMPDevice, DeviceFindAPI, DeviceWorkStateAPI, DeviceHotspotAPI,
    DeviceAudioRecordingAPI, DeviceCameraAPI, MediaImportControlChannel, DeviceMediaFileImportAPI, @unchecked Sendable
{
    private let importEngine = LazyMediaImportEngine()

    /// This device's media import engine, made on first use.
    public var mediaImport: MediaImportEngine { importEngine.engine(for: self) }
}
