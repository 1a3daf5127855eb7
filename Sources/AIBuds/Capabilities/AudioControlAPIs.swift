import AIBudsFoundation
import Foundation

// Audio capabilities of earbuds and speakers, over the Device group's settings and actions
// (docs/protocol.md §3, "Controls"). Properties reflect the device's last report; its events keep them
// current, also for changes another client or the wearer made.

/// Volume levels.
public protocol DeviceVolumeControlAPI: DeviceAPI {
    /// The highest volume level, when known.
    var maxVolumeLevel: NSNumber? { get }
    /// The current media volume level, when known.
    var mediaVolume: NSNumber? { get }
    /// Sets the media volume level; a level above ``maxVolumeLevel`` fails with the device's
    /// invalid-argument code (6).
    func setVolume(_ level: NSNumber) async throws
    /// Reads the volume and its maximum, updating ``mediaVolume`` and ``maxVolumeLevel``.
    func requestQueryVolume() async throws -> NSNumber
}

extension DeviceVolumeControlAPI {
    /// Sets the media volume level.
    public func setVolume(_ level: NSNumber, completion: AIBudsCompletionHandler?) {
        AIBudsCall.run(completion) { try await self.setVolume(level) }
    }
}

/// Equalizer presets.
public protocol DeviceEqualizerAPI: DeviceAPI {
    /// The current preset.
    var equalizerMode: EqualizerMode { get }
    /// Selects a preset.
    func setEqualizerMode(_ mode: EqualizerMode) async throws
    /// The custom curve's gain per band in dB, lowest band first.
    var equalizerBands: [Int] { get }
    /// The gains a band takes, in dB, when known.
    var equalizerBandRange: ClosedRange<Int>? { get }
    /// Sets the custom curve (one gain per band, within ``equalizerBandRange``) and selects the
    /// `custom` preset.
    func setEqualizerBands(_ bands: [Int]) async throws
    /// Reads the preset and the bands.
    func requestQueryEqualizer() async throws -> EqualizerMode
}

extension DeviceEqualizerAPI {
    /// Selects a preset.
    public func setEqualizerMode(_ mode: EqualizerMode, completion: AIBudsCompletionHandler?) {
        AIBudsCall.run(completion) { try await self.setEqualizerMode(mode) }
    }
}

/// Active noise cancellation.
public protocol DeviceANCAPI: DeviceAPI {
    /// The noise cancellation mode in effect on the device: off, on, or transparency.
    var ancMode: AncMode { get }
    /// Selects an ANC mode.
    func setAncMode(_ mode: AncMode) async throws
    /// The depth of cancellation (on) or the ambient level (transparency), 0–10; nil when off.
    var ancGain: Int? { get }
    /// How long a mode switch fades in milliseconds; nil when off.
    var ancFadeMilliseconds: Int? { get }
    /// Selects an ANC mode with its gain (0–10) and fade (0–3,000 ms); off takes neither.
    func setAncMode(_ mode: AncMode, gain: Int?, fadeMilliseconds: Int?) async throws
    /// Reads the mode, gain and fade.
    func requestQueryAncMode() async throws -> AncMode
}

extension DeviceANCAPI {
    /// Selects an ANC mode; the completion gets the error, `nil` on success.
    public func setAncMode(_ mode: AncMode, completion: AIBudsErrorCompletionHandler?) {
        AIBudsCall.run(completion) { try await self.setAncMode(mode) }
    }
}

/// Whether the device is being worn, and whether it should sense that at all.
public protocol DeviceWearDetectionAPI: DeviceAPI {
    /// Whether the device can detect being worn.
    var isWearDetectionSupported: Bool { get }
    /// Whether wear detection is on.
    var isWearDetectionEnabled: Bool { get }
    /// Whether the device is on the wearer now: worn, not worn, or unknown.
    var wearStatus: WearStatus { get }
    /// Turns wear detection on or off.
    func setWearDetectionEnabled(_ enabled: Bool) async throws
    /// Whether the left bud is in an ear (`unknown` with detection off or on a one-piece device).
    var leftWearStatus: WearStatus { get }
    /// Whether the right bud is in an ear.
    var rightWearStatus: WearStatus { get }
    /// Reads wear detection and the wear statuses.
    func requestQueryWearStatus() async throws -> WearStatus
}

extension DeviceWearDetectionAPI {
    /// Turns wear detection on or off.
    public func setWearDetectionEnabled(_ enabled: Bool, completion: AIBudsCompletionHandler?) {
        AIBudsCall.run(completion) { try await self.setWearDetectionEnabled(enabled) }
    }
}

/// The connection between the two earbuds of a TWS pair.
public protocol DeviceTWSAPI: DeviceAPI {
    /// Whether the device is a TWS pair.
    var isTWSDevice: Bool { get }
    /// The current connection state between the earbuds.
    var twsConnectionState: TWSConnectionState { get }
    /// Reads the connection state.
    func requestQueryTWSConnectionState() async throws -> TWSConnectionState
    /// The pair's link, each bud's and the case's battery, and the lid, when known.
    var twsStatus: TWSStatusModel? { get }
}

extension DeviceTWSAPI {
    /// Reads the connection state.
    public func requestQueryTWSConnectionState(_ completion: AIBudsCompletionHandler?) {
        AIBudsCall.run(completion) { _ = try await self.requestQueryTWSConnectionState() }
    }
}

/// Music playback control.
public protocol DeviceMusicControlAPI: DeviceAPI {
    /// Sends a playback command.
    func sendMusicControl(_ command: MusicControlCommand) async throws
    /// The media session the commands act on, as last reported.
    var mediaSession: MediaSessionModel? { get }
    /// Reads the media session.
    func requestQueryMediaSession() async throws -> MediaSessionModel
}

extension DeviceMusicControlAPI {
    /// Sends a playback command.
    public func sendMusicControl(_ command: MusicControlCommand, completion: AIBudsCompletionHandler?) {
        AIBudsCall.run(completion) { try await self.sendMusicControl(command) }
    }
}
