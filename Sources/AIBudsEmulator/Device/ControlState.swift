import AIBudsFoundation
import AIBudsCBOR
import AIBudsWire

/// The controls of an emulated device (docs/protocol.md §3, "Controls"): audio settings, the pair's
/// state, the media session, key mapping and the glasses' services. Pure values and rules; the
/// device holds one under its lock and persists it with the other settings.
struct ControlState: Codable, Equatable, Sendable {
    /// The highest volume step.
    static let maxVolume: UInt64 = 16
    /// The equalizer's band count and gain limits, in dB.
    static let bandCount = 10
    static let bandRange = -12...12
    /// The ANC gain limit and the longest fade, in milliseconds.
    static let maxGain: UInt64 = 10
    static let maxFade: UInt64 = 3_000
    /// The longest teleprompter page, in characters, and the longest text.
    static let pageLength = 200
    static let maxTextLength = 20_000
    /// The tracks of the emulated media session.
    static let playlist = ["Morning Run", "Blue Train", "Clair de Lune", "Harbour Lights", "Night Drive"]
    /// The glasses' on-device apps.
    static let installedApps = [("camera", "Camera"), ("translate", "Translate"), ("notes", "Notes"), ("music", "Music")]

    var workMode = WorkMode.normal.rawValue
    var volume: UInt64 = 8
    var eqMode = EqualizerMode.normal.rawValue
    var eqBands = [Int](repeating: 0, count: ControlState.bandCount)
    var ancMode = AncMode.off.rawValue
    var ancGain: UInt64 = 6
    var transparencyGain: UInt64 = 4
    var ancFade: UInt64 = 300
    var wearEnabled = true
    var leftWorn = true
    var rightWorn = true
    var twsConnected = true
    var leftBattery: UInt64 = 92
    var rightBattery: UInt64 = 90
    var caseBattery: UInt64 = 64
    var caseOpen = false
    var mediaState = 2
    var track: UInt64 = 0
    var keys: [KeyAssignment] = [
        KeyAssignment(op: PhysicalOperation.singleTap.rawValue, fn: PhysicalOperationFunction.playPause.rawValue),
        KeyAssignment(op: PhysicalOperation.doubleTap.rawValue, fn: PhysicalOperationFunction.nextTrack.rawValue),
        KeyAssignment(op: PhysicalOperation.tripleTap.rawValue, fn: PhysicalOperationFunction.previousTrack.rawValue),
        KeyAssignment(op: PhysicalOperation.longPress.rawValue, fn: PhysicalOperationFunction.voiceAssistant.rawValue),
    ]
    var shutter = false
    var voiceAssistant = false
    var runningApps: [String] = []
    var authState = 0
    var authAttempts: UInt64 = 0
    var pages: [String] = []
    var page: UInt64 = 0
    var position: UInt64 = 0
    var navigation: NavigationSetting?
    /// The navigation alert on the display (`navigation.alert`), nil when none.
    var navigationAlert: NavigationAlertSetting?
    /// Whether the wearer asked the glasses to find the phone and the app has not reported it found.
    var findingPhone = false

    /// The defaults of a profile: glasses map their keys to the camera.
    static func defaults(for kind: DeviceProfile.Kind) -> ControlState {
        var state = ControlState()
        if kind == .glasses {
            state.keys = [
                KeyAssignment(op: PhysicalOperation.singleTap.rawValue, fn: PhysicalOperationFunction.takePhoto.rawValue),
                KeyAssignment(op: PhysicalOperation.doubleTap.rawValue, fn: PhysicalOperationFunction.playPause.rawValue),
                KeyAssignment(op: PhysicalOperation.tripleTap.rawValue, fn: PhysicalOperationFunction.none.rawValue),
                KeyAssignment(
                    op: PhysicalOperation.longPress.rawValue, fn: PhysicalOperationFunction.toggleVideoRecording.rawValue),
            ]
        }
        return state
    }

    /// The settings a profile has.
    static func settings(of kind: DeviceProfile.Kind) -> Set<String> {
        switch kind {
        case .earbuds:
            return [DeviceSettingName.workMode, DeviceSettingName.volume, DeviceSettingName.equalizer,
                    DeviceSettingName.anc, DeviceSettingName.wear, DeviceSettingName.tws, DeviceSettingName.media,
                    DeviceSettingName.keys]
        case .glasses:
            return [DeviceSettingName.keys, DeviceSettingName.shutter, DeviceSettingName.voiceAssistant,
                    DeviceSettingName.apps, DeviceSettingName.serviceAuth, DeviceSettingName.teleprompter,
                    DeviceSettingName.navigation, DeviceSettingName.navigationAlert, DeviceSettingName.camera,
                    DeviceSettingName.findPhone]
        case .watch:
            return []
        }
    }

    // MARK: - Values

    /// The combined wear status: worn when a bud is in an ear; unknown when detection is off.
    var wearStatus: WearStatus {
        guard wearEnabled else { return .unknown }
        return leftWorn || rightWorn ? .worn : .notWorn
    }

    private func side(_ worn: Bool) -> Int { wearEnabled ? (worn ? WearStatus.worn : .notWorn).rawValue : WearStatus.unknown.rawValue }

    /// The value map of setting `name`, as Device `setting` reads and events carry it.
    func value(_ name: String, camera firmware: String) -> CBOR {
        let encoder = CBOREncoder()
        func encoded(_ value: some Encodable) -> CBOR { (try? encoder.encodeValue(value)) ?? .map([:]) }
        switch name {
        case DeviceSettingName.workMode: return encoded(WorkModeSetting(mode: workMode))
        case DeviceSettingName.volume: return encoded(VolumeSetting(level: volume, max: Self.maxVolume))
        case DeviceSettingName.equalizer:
            return encoded(EqualizerSetting(
                mode: eqMode, bands: eqBands, bandMin: Self.bandRange.lowerBound, bandMax: Self.bandRange.upperBound))
        case DeviceSettingName.anc:
            switch AncMode(rawValue: ancMode) {
            case .ancOn: return encoded(ANCSetting(mode: ancMode, gain: ancGain, fade: ancFade))
            case .transparency: return encoded(ANCSetting(mode: ancMode, gain: transparencyGain, fade: ancFade))
            default: return encoded(ANCSetting(mode: ancMode))
            }
        case DeviceSettingName.wear:
            return encoded(WearSetting(enabled: wearEnabled, status: wearStatus.rawValue, left: side(leftWorn), right: side(rightWorn)))
        case DeviceSettingName.tws:
            return encoded(TWSSetting(
                state: (twsConnected ? TWSConnectionState.connected : .disconnected).rawValue, leftBattery: leftBattery,
                rightBattery: rightBattery, caseBattery: caseBattery, caseOpen: caseOpen))
        case DeviceSettingName.media:
            let index = Int(track % UInt64(Self.playlist.count))
            return encoded(MediaSessionSetting(
                state: mediaState, track: track, tracks: UInt64(Self.playlist.count), title: Self.playlist[index]))
        case DeviceSettingName.keys: return encoded(KeysSetting(keys: keys))
        case DeviceSettingName.shutter: return encoded(EnabledSetting(enabled: shutter))
        case DeviceSettingName.voiceAssistant: return encoded(EnabledSetting(enabled: voiceAssistant))
        case DeviceSettingName.apps:
            return encoded(AppsSetting(apps: Self.installedApps.map {
                DeviceAppEntry(id: $0.0, name: $0.1, running: runningApps.contains($0.0))
            }))
        case DeviceSettingName.serviceAuth: return encoded(ServiceAuthSetting(state: authState, attempts: authAttempts))
        case DeviceSettingName.teleprompter:
            return encoded(TeleprompterSetting(open: !pages.isEmpty, pages: UInt64(pages.count), page: page, position: position))
        case DeviceSettingName.navigation:
            var value = navigation ?? NavigationSetting()
            value.active = navigation != nil
            return encoded(value)
        case DeviceSettingName.navigationAlert:
            var value = navigationAlert ?? NavigationAlertSetting()
            value.active = navigationAlert != nil
            return encoded(value)
        case DeviceSettingName.findPhone: return encoded(FindPhoneSetting(searching: findingPhone))
        case DeviceSettingName.camera: return encoded(CameraSetting(firmware: firmware))
        default: return .map([:])
        }
    }
}
