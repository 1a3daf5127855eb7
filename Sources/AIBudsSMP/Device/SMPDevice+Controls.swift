import AIBuds
import AIBudsFoundation
import AIBudsCBOR
import AIBudsWire
import Foundation

/// The Device group's settings and actions (docs/protocol.md §3, "Controls") as SDK calls: each
/// read or write applies the device's answer to ``BaseDevice/currentStatus`` at once; the device's
/// events bring the same change to every connected client's delegate.
extension SMPDevice {
    /// Reads setting `name` (the device must report `capability`) and applies its value.
    @discardableResult
    func readSetting(_ name: String, _ capability: DeviceCapability) async throws -> DeviceStateEvent {
        let response = try await run(capability) { try await $0.request(DeviceSettingReadRequest(name: name)) }
        return try adopt(name, response.value)
    }

    /// Writes `value` to setting `name` and applies the device's answer.
    @discardableResult
    func writeSetting(_ name: String, _ capability: DeviceCapability, _ value: some Encodable) async throws -> DeviceStateEvent {
        let map = try Self.encode(value)
        let response = try await run(capability) { try await $0.request(DeviceSettingWriteRequest(name: name, value: map)) }
        return try adopt(name, response.value)
    }

    /// Performs action `name` with `args` and applies the value of the setting it changed.
    func act(_ name: String, _ capability: DeviceCapability, _ args: (some Encodable)?) async throws {
        let map: CBOR? = try args.map { try Self.encode($0) }
        let response = try await run(capability) { try await $0.request(DeviceActionRequest(name: name, args: map)) }
        if let setting = response.setting, let value = response.value { _ = try adopt(setting, value) }
    }

    private struct NoArgs: Encodable {}

    /// Performs action `name` without arguments.
    func act(_ name: String, _ capability: DeviceCapability) async throws {
        try await act(name, capability, NoArgs?.none)
    }

    private static func encode(_ value: some Encodable) throws -> CBOR {
        do { return try CBOREncoder().encodeValue(value) } catch {
            throw AIBudsError(.operationFailedDueToWrongParameters, "cannot encode \(value)", underlying: error)
        }
    }

    private func adopt(_ name: String, _ value: CBOR) throws -> DeviceStateEvent {
        guard let event = SMPControlMapping.event(name, value) else {
            throw AIBudsError(.operationFailedDueToDeviceResponseDataParsingFailed, "the device's \(name) does not decode")
        }
        apply([event], notify: false)
        return event
    }

    static func nonNegative(_ value: Int, _ what: String) throws -> UInt64 {
        guard value >= 0 else { throw AIBudsError(.operationFailedDueToWrongParameters, "\(what) must not be negative") }
        return UInt64(value)
    }

    // MARK: DeviceWorkModeAPI

    /// The last known work mode.
    public var workMode: WorkMode { currentStatus.workMode }

    /// Reads the work mode.
    public func requestQueryWorkMode() async throws -> WorkMode {
        try await readSetting(DeviceSettingName.workMode, .workMode)
        return workMode
    }

    /// Switches between normal and low-latency mode.
    public func setWorkMode(_ mode: WorkMode) async throws {
        guard mode != .unknown else { throw AIBudsError(.operationFailedDueToWrongParameters, "no work mode to set") }
        try await writeSetting(DeviceSettingName.workMode, .workMode, WorkModeSetting(mode: mode.rawValue))
    }

    // MARK: DeviceVolumeControlAPI

    /// The highest volume step the device reported.
    public var maxVolumeLevel: NSNumber? { currentStatus.maxVolume.map { NSNumber(value: $0) } }
    /// The media volume step the device reported last.
    public var mediaVolume: NSNumber? { currentStatus.volume.map { NSNumber(value: $0) } }

    /// Sets the media volume step; the device refuses one above its maximum (code 6).
    public func setVolume(_ level: NSNumber) async throws {
        let value = try Self.nonNegative(level.intValue, "a volume level")
        try await writeSetting(DeviceSettingName.volume, .volume, VolumeSetting(level: value))
    }

    /// Reads the volume and its maximum.
    public func requestQueryVolume() async throws -> NSNumber {
        try await readSetting(DeviceSettingName.volume, .volume)
        return mediaVolume ?? 0
    }

    // MARK: DeviceEqualizerAPI

    /// The preset the device reported last.
    public var equalizerMode: EqualizerMode { currentStatus.equalizerMode }
    /// The custom curve, dB per band.
    public var equalizerBands: [Int] { currentStatus.equalizerBands }
    /// The gain limits of a band, in dB.
    public var equalizerBandRange: ClosedRange<Int>? { currentStatus.equalizerBandRange }

    /// Selects a preset, keeping the custom bands.
    public func setEqualizerMode(_ mode: EqualizerMode) async throws {
        guard mode != .unknown else { throw AIBudsError(.operationFailedDueToWrongParameters, "no preset to set") }
        try await writeSetting(DeviceSettingName.equalizer, .equalizer, EqualizerSetting(mode: mode.rawValue))
    }

    /// Sets the custom curve and selects `custom`; the device checks the band count and limits.
    public func setEqualizerBands(_ bands: [Int]) async throws {
        try await writeSetting(
            DeviceSettingName.equalizer, .equalizer, EqualizerSetting(mode: EqualizerMode.custom.rawValue, bands: bands))
    }

    /// Reads the preset and bands.
    public func requestQueryEqualizer() async throws -> EqualizerMode {
        try await readSetting(DeviceSettingName.equalizer, .equalizer)
        return equalizerMode
    }

    // MARK: DeviceANCAPI

    /// The ANC mode the device reported last.
    public var ancMode: AncMode { currentStatus.ancMode }
    /// The gain of the mode in effect.
    public var ancGain: Int? { currentStatus.ancGain }
    /// The fade of a mode switch, in milliseconds.
    public var ancFadeMilliseconds: Int? { currentStatus.ancFade }

    /// Selects an ANC mode, keeping its gain and fade.
    public func setAncMode(_ mode: AncMode) async throws {
        try await setAncMode(mode, gain: nil, fadeMilliseconds: nil)
    }

    /// Selects an ANC mode with a gain and fade; the device refuses them for `off` and past its limits.
    public func setAncMode(_ mode: AncMode, gain: Int?, fadeMilliseconds: Int?) async throws {
        guard mode != .unknown else { throw AIBudsError(.operationFailedDueToWrongParameters, "no ANC mode to set") }
        let value = ANCSetting(
            mode: mode.rawValue, gain: try gain.map { try Self.nonNegative($0, "a gain") },
            fade: try fadeMilliseconds.map { try Self.nonNegative($0, "a fade") })
        try await writeSetting(DeviceSettingName.anc, .anc, value)
    }

    /// Reads the ANC mode, gain and fade.
    public func requestQueryAncMode() async throws -> AncMode {
        try await readSetting(DeviceSettingName.anc, .anc)
        return ancMode
    }

    // MARK: DeviceWearDetectionAPI

    /// True when the device reports the `wearDetection` capability.
    public var isWearDetectionSupported: Bool { capabilities.contains(.wearDetection) }
    /// Whether detection is on, as last reported (false before the first report).
    public var isWearDetectionEnabled: Bool { currentStatus.wearDetectionEnabled ?? false }
    /// Worn when any bud is in an ear; `unknown` with detection off.
    public var wearStatus: WearStatus { currentStatus.wearStatus }
    /// The left bud's wear status.
    public var leftWearStatus: WearStatus { currentStatus.leftWearStatus }
    /// The right bud's wear status.
    public var rightWearStatus: WearStatus { currentStatus.rightWearStatus }

    /// Turns detection on or off.
    public func setWearDetectionEnabled(_ enabled: Bool) async throws {
        try await writeSetting(DeviceSettingName.wear, .wearDetection, WearSetting(enabled: enabled))
    }

    /// Reads detection and the wear statuses.
    public func requestQueryWearStatus() async throws -> WearStatus {
        try await readSetting(DeviceSettingName.wear, .wearDetection)
        return wearStatus
    }

    // MARK: DeviceTWSAPI

    /// True when the device reports the `tws` capability.
    public var isTWSDevice: Bool { capabilities.contains(.tws) }
    /// Whether the buds reach each other, as last reported.
    public var twsConnectionState: TWSConnectionState { currentStatus.tws?.connectionState ?? .unknown }
    /// The pair's link, batteries and case, as last reported.
    public var twsStatus: TWSStatusModel? { currentStatus.tws }

    /// Reads the pair's state.
    public func requestQueryTWSConnectionState() async throws -> TWSConnectionState {
        try await readSetting(DeviceSettingName.tws, .tws)
        return twsConnectionState
    }

    // MARK: DeviceMusicControlAPI

    /// The media session as last reported.
    public var mediaSession: MediaSessionModel? { currentStatus.mediaSession }

    /// Sends a playback command to the device's media session.
    public func sendMusicControl(_ command: MusicControlCommand) async throws {
        try await act(DeviceActionName.music, .musicControl, MusicActionArgs(command: command.rawValue))
    }

    /// Reads the media session.
    public func requestQueryMediaSession() async throws -> MediaSessionModel {
        guard case .mediaSession(let session) = try await readSetting(DeviceSettingName.media, .musicControl) else {
            throw AIBudsError(.operationFailedDueToDeviceResponseDataParsingFailed, "the media session does not decode")
        }
        return session
    }

    // MARK: DevicePhysicalOperationsAPI

    /// Each operation's function, as last reported.
    public var physicalOperationMapping: [PhysicalOperation: PhysicalOperationFunction] {
        currentStatus.physicalOperationMapping
    }

    /// Makes `operation` trigger `function`.
    public func assignFunction(_ function: PhysicalOperationFunction, to operation: PhysicalOperation) async throws {
        try await writeSetting(
            DeviceSettingName.keys, .physicalOperations,
            KeysSetting(keys: [KeyAssignment(op: operation.rawValue, fn: function.rawValue)]))
    }

    /// Reads the mapping.
    public func requestQueryPhysicalOperationMapping() async throws -> [PhysicalOperation: PhysicalOperationFunction] {
        try await readSetting(DeviceSettingName.keys, .physicalOperations)
        return physicalOperationMapping
    }
}
