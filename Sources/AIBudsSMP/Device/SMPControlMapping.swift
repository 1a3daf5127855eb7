import AIBuds
import AIBudsFoundation
import AIBudsCBOR
import AIBudsWire

/// Turns the value maps of the Device group's settings and gesture events (docs/protocol.md §3,
/// "Controls") into the SDK's state events, and names the setting behind each capability.
enum SMPControlMapping {
    /// The setting each capability reads at initialization.
    static let settingOfCapability: [(DeviceCapability, String)] = [
        (.workMode, DeviceSettingName.workMode), (.volume, DeviceSettingName.volume),
        (.equalizer, DeviceSettingName.equalizer), (.anc, DeviceSettingName.anc), (.wearDetection, DeviceSettingName.wear),
        (.tws, DeviceSettingName.tws), (.musicControl, DeviceSettingName.media),
        (.physicalOperations, DeviceSettingName.keys), (.remoteShutter, DeviceSettingName.shutter),
        (.voiceAssistant, DeviceSettingName.voiceAssistant), (.apps, DeviceSettingName.apps),
        (.serviceAuth, DeviceSettingName.serviceAuth), (.teleprompter, DeviceSettingName.teleprompter),
        (.navigation, DeviceSettingName.navigation), (.navigation, DeviceSettingName.navigationAlert),
        (.camera, DeviceSettingName.camera), (.findPhone, DeviceSettingName.findPhone),
    ]

    private static func decode<T: Decodable>(_ type: T.Type, _ value: CBOR) -> T? {
        try? CBORDecoder().decode(type, from: value)
    }

    /// The state event of a setting's value map or a gesture event; nil for a name this SDK does not
    /// know or a value that does not decode.
    static func event(_ name: String, _ value: CBOR) -> DeviceStateEvent? {
        switch name {
        case DeviceSettingName.workMode:
            return decode(WorkModeSetting.self, value).map { .workMode(WorkMode(lenientRawValue: $0.mode)) }
        case DeviceSettingName.volume:
            return decode(VolumeSetting.self, value).map {
                .volume(level: Int(clamping: $0.level), max: $0.max.map { Int(clamping: $0) })
            }
        case DeviceSettingName.equalizer:
            return decode(EqualizerSetting.self, value).map { eq in
                let range = eq.bandMin.flatMap { low in eq.bandMax.flatMap { high in low <= high ? low...high : nil } }
                return .equalizer(mode: EqualizerMode(lenientRawValue: eq.mode), bands: eq.bands ?? [], bandRange: range)
            }
        case DeviceSettingName.anc:
            return decode(ANCSetting.self, value).map {
                .anc(mode: AncMode(lenientRawValue: $0.mode), gain: $0.gain.map { Int(clamping: $0) },
                     fade: $0.fade.map { Int(clamping: $0) })
            }
        case DeviceSettingName.wear:
            return decode(WearSetting.self, value).map {
                .wear(enabled: $0.enabled, status: WearStatus(lenientRawValue: $0.status ?? -1),
                      left: WearStatus(lenientRawValue: $0.left ?? -1), right: WearStatus(lenientRawValue: $0.right ?? -1))
            }
        case DeviceSettingName.tws:
            return decode(TWSSetting.self, value).map {
                .tws(TWSStatusModel(
                    connectionState: TWSConnectionState(lenientRawValue: $0.state), leftBattery: Int(clamping: $0.leftBattery),
                    rightBattery: Int(clamping: $0.rightBattery), caseBattery: Int(clamping: $0.caseBattery),
                    isCaseOpen: $0.caseOpen))
            }
        case DeviceSettingName.media:
            return decode(MediaSessionSetting.self, value).map {
                .mediaSession(MediaSessionModel(
                    state: MediaPlaybackState(lenientRawValue: $0.state), trackIndex: Int(clamping: $0.track),
                    trackCount: Int(clamping: $0.tracks), title: $0.title))
            }
        case DeviceSettingName.keys:
            return decode(KeysSetting.self, value).map { setting in
                var mapping: [PhysicalOperation: PhysicalOperationFunction] = [:]
                for key in setting.keys {
                    if let op = PhysicalOperation(rawValue: key.op), let fn = PhysicalOperationFunction(rawValue: key.fn) {
                        mapping[op] = fn
                    }
                }
                return .physicalOperationMapping(mapping)
            }
        case DeviceSettingName.shutter:
            return decode(EnabledSetting.self, value).map { .remoteShutter(enabled: $0.enabled) }
        case DeviceSettingName.voiceAssistant:
            return decode(EnabledSetting.self, value).map { .voiceAssistant(enabled: $0.enabled) }
        case DeviceSettingName.apps:
            return decode(AppsSetting.self, value).map {
                .apps($0.apps.map { DeviceAppModel(identifier: $0.id, name: $0.name, isRunning: $0.running) })
            }
        case DeviceSettingName.serviceAuth:
            return decode(ServiceAuthSetting.self, value).map {
                .serviceAuth(state: ServiceAuthState(lenientRawValue: $0.state), attempts: Int(clamping: $0.attempts))
            }
        case DeviceSettingName.teleprompter:
            return decode(TeleprompterSetting.self, value).map {
                .teleprompter(TeleprompterStateModel(
                    isOpen: $0.open, pageCount: Int(clamping: $0.pages), page: Int(clamping: $0.page),
                    position: Int(clamping: $0.position)))
            }
        case DeviceSettingName.navigation:
            return decode(NavigationSetting.self, value).map { nav in
                guard nav.active == true, let maneuver = nav.maneuver else { return .navigation(nil) }
                return .navigation(NavigationInstruction(
                    maneuver: NavigationManeuver(wireName: maneuver), distanceInMeters: Int(clamping: nav.distance ?? 0), text: nav.street ?? ""))
            }
        case DeviceSettingName.navigationAlert:
            return decode(NavigationAlertSetting.self, value).map { alert in
                guard alert.active == true, let kind = alert.kind else { return .navigationAlert(nil) }
                return .navigationAlert(NavigationAlert(
                    kind: NavigationAlertKind(wireName: kind), distanceInMeters: alert.distance.map { Int(clamping: $0) }))
            }
        case DeviceSettingName.findPhone:
            return decode(FindPhoneSetting.self, value).map { .findPhone(searching: $0.searching) }
        case DeviceSettingName.camera:
            return decode(CameraSetting.self, value).map { .cameraFirmwareVersion($0.firmware) }
        case DeviceGestureEventKind.keyPress:
            return decode(KeyPressEvent.self, value).flatMap { press in
                PhysicalOperation(rawValue: press.op).map { .physicalOperation(side: press.side, operation: $0) }
            }
        case DeviceGestureEventKind.wakeWord:
            return decode(WakeWordEvent.self, value).map { .wakeWord($0.word) }
        case DeviceGestureEventKind.shutterPressed:
            return .remoteShutterPressed
        case DeviceGestureEventKind.deleteProgress:
            // The vendor's event has only the outcome: a finished deletion is `completed`.
            return decode(DeleteProgressEvent.self, value).flatMap { $0.deleted >= $0.total ? .fileDeletingProgress(.completed) : nil }
        default:
            return nil
        }
    }
}
