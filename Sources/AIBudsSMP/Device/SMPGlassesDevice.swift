import AIBuds
import AIBudsImport

/// AI glasses over SMP: camera, hotspot, audio recording, find, work state, media import over the
/// hotspot with the engine the device owns, and the services (remote shutter, apps, service
/// authorization, voice assistant, teleprompter, navigation, key mapping) and the live stream; the AI
/// audio path with AIBudsSMPAudio.
public final class SMPGlassesDevice: SMPDevice, DeviceFindAPI, DeviceWorkStateAPI, DeviceHotspotAPI,
    DeviceAudioRecordingAPI, DeviceCameraAPI, MediaImportControlChannel, DeviceMediaFileImportAPI,
    DeviceRemoteShutterAPI, DeviceAppsAPI, DeviceServiceAuthAPI, OnDeviceVoiceAssistantAPI, TeleprompterAPI,
    TurnByTurnNavigationAPI, DevicePhysicalOperationsAPI, DeviceCameraOtaAPI, LiveStreamingAPI, @unchecked Sendable
{
    private let importEngine = LazyMediaImportEngine()

    /// This device's media import engine, made on first use.
    public var mediaImport: MediaImportEngine { importEngine.engine(for: self) }
}
