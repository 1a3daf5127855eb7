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
        case .firmwareVersion, .fileDeletingProgress: break
        }
    }
}
