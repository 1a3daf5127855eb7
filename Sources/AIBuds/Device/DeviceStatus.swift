import AIBudsFoundation
import Foundation

/// The last known values of a device's states, kept by ``BaseDevice`` from its queries and events.
public struct DeviceStatus: Sendable {
    /// Battery level and charging.
    public var battery: BatteryStatusInfoModel?
    /// Storage use.
    public var storage: StorageInfoModel?
    /// How many photos, videos and audio files the device holds; nil before the first report.
    public var mediaCount: MediaCountInfoModel?
    /// What the device is doing (recording, transferring, idle, ...); `unknown` before the first
    /// report.
    public var workState: WorkState = .unknown
    /// Whether the device's Wi-Fi hotspot is open; `unknown` before the first report.
    public var hotspotState: HotspotState = .unknown
    /// The hotspot's data-plane address, once reported.
    public var hotspotAddress: String?
    /// The UI language.
    public var language: DeviceLanguage?
    /// The languages the device offers.
    public var supportedLanguages: [DeviceLanguage] = []
    /// The longest audio recording, in seconds.
    public var maxAudioRecordDuration: Int?
    /// The longest video recording, in seconds.
    public var maxVideoRecordDuration: Int?
    /// The media list generation last reported.
    public var mediaGeneration: UInt64?

    /// Normal or low-latency; `unknown` before the first report.
    public var workMode: WorkMode = .unknown
    /// The media volume step.
    public var volume: Int?
    /// The highest volume step.
    public var maxVolume: Int?
    /// The equalizer preset.
    public var equalizerMode: EqualizerMode = .unknown
    /// The custom curve's gain per band, in dB.
    public var equalizerBands: [Int] = []
    /// The gains a band takes, in dB.
    public var equalizerBandRange: ClosedRange<Int>?
    /// The noise cancellation mode.
    public var ancMode: AncMode = .unknown
    /// The gain of the ANC mode in effect (0–10), nil when off.
    public var ancGain: Int?
    /// How long an ANC switch fades, in milliseconds, nil when off.
    public var ancFade: Int?
    /// Whether wear detection is on; nil before the first report.
    public var wearDetectionEnabled: Bool?
    /// Whether the device is worn (any bud).
    public var wearStatus: WearStatus = .unknown
    /// Whether the left bud is worn.
    public var leftWearStatus: WearStatus = .unknown
    /// Whether the right bud is worn.
    public var rightWearStatus: WearStatus = .unknown
    /// The pair's link, batteries and case.
    public var tws: TWSStatusModel?
    /// The media session music commands drive.
    public var mediaSession: MediaSessionModel?
    /// What each tap or press triggers (play or pause, next track, photo, ...).
    public var physicalOperationMapping: [PhysicalOperation: PhysicalOperationFunction] = [:]
    /// Whether remote shutter presses go to the app.
    public var remoteShutterEnabled: Bool?
    /// Whether the on-device voice assistant listens.
    public var voiceAssistantEnabled: Bool?
    /// The apps installed on the device.
    public var apps: [DeviceAppModel] = []
    /// The service authorization's state.
    public var serviceAuthState: ServiceAuthState = .unknown
    /// How many authorizations the device attempted.
    public var serviceAuthAttempts: Int?
    /// What the teleprompter shows.
    public var teleprompter: TeleprompterStateModel?
    /// The navigation instruction on the display, nil when none.
    public var navigation: NavigationInstruction?
    /// The navigation alert on the display, nil when none.
    public var navigationAlert: NavigationAlert?
    /// Whether the wearer asked the glasses to find the phone and it is not reported found yet.
    public var isFindingPhone: Bool?
    /// The camera module's firmware version.
    public var cameraFirmwareVersion: String?

    /// Creates an empty status.
    public init() {}

    /// Applies an event's value.
    public mutating func apply(_ event: DeviceStateEvent) {
        switch event {
        case .battery(let value): battery = value
        case .workState(let value): workState = value
        case .storage(let value): storage = value
        case .mediaCount(let value): mediaCount = value
        case .hotspotState(let value): hotspotState = value
        case .hotspotAddress(let value): hotspotAddress = value
        case .mediaChanged(let generation, _): mediaGeneration = generation
        case .language(let value): language = value
        case .supportedLanguages(let value): supportedLanguages = value
        case .maxAudioRecordDuration(let value): maxAudioRecordDuration = value
        case .maxVideoRecordDuration(let value): maxVideoRecordDuration = value
        case .workMode(let value): workMode = value
        case .volume(let level, let max):
            volume = level
            if let max { maxVolume = max }
        case .equalizer(let mode, let bands, let range):
            equalizerMode = mode
            equalizerBands = bands
            if let range { equalizerBandRange = range }
        case .anc(let mode, let gain, let fade):
            ancMode = mode
            ancGain = gain
            ancFade = fade
        case .wear(let enabled, let status, let left, let right):
            wearDetectionEnabled = enabled
            wearStatus = status
            leftWearStatus = left
            rightWearStatus = right
        case .tws(let value): tws = value
        case .mediaSession(let value): mediaSession = value
        case .physicalOperationMapping(let value): physicalOperationMapping = value
        case .remoteShutter(let enabled): remoteShutterEnabled = enabled
        case .voiceAssistant(let enabled): voiceAssistantEnabled = enabled
        case .apps(let value): apps = value
        case .serviceAuth(let state, let attempts):
            serviceAuthState = state
            serviceAuthAttempts = attempts
        case .teleprompter(let value): teleprompter = value
        case .navigation(let value): navigation = value
        case .navigationAlert(let value): navigationAlert = value
        case .findPhone(let searching): isFindingPhone = searching
        case .cameraFirmwareVersion(let value): cameraFirmwareVersion = value
        case .firmwareVersion, .fileDeletingProgress, .physicalOperation, .wakeWord, .remoteShutterPressed: break
        }
    }
}
