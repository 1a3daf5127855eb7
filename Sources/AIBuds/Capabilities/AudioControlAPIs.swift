import AIBudsFoundation
import Foundation

// Audio capabilities of earbuds and speakers. Declared with their models; not implemented over the
// wire yet (README's feature table).

/// Volume levels.
public protocol DeviceVolumeControlAPI: DeviceAPI {
    /// The highest volume level, when known.
    var maxVolumeLevel: NSNumber? { get }
    /// The current media volume level, when known.
    var mediaVolume: NSNumber? { get }
    /// Sets the media volume level.
    func setVolume(_ level: NSNumber) async throws
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
}

extension DeviceMusicControlAPI {
    /// Sends a playback command.
    public func sendMusicControl(_ command: MusicControlCommand, completion: AIBudsCompletionHandler?) {
        AIBudsCall.run(completion) { try await self.sendMusicControl(command) }
    }
}
