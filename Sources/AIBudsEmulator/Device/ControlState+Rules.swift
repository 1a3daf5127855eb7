import AIBudsFoundation
import AIBudsCBOR
import AIBudsWire

/// The firmware rules of the controls: what a write or an action may change, its limits, and the
/// settings each change touches (each becomes an event).
extension ControlState {
    private static func decode<T: Decodable>(_ type: T.Type, _ value: CBOR?) throws(EmulatorError) -> T {
        do { return try CBORDecoder().decode(type, from: value ?? .map([:])) } catch {
            throw EmulatorError(.invalidArgument, "malformed value: \(error)")
        }
    }

    private static func invalid(_ message: String) -> EmulatorError { EmulatorError(.invalidArgument, message) }

    /// Applies a Device `setting` write; returns the settings that changed.
    mutating func write(_ name: String, _ value: CBOR) throws(EmulatorError) -> [String] {
        let before = self
        switch name {
        case DeviceSettingName.workMode:
            let mode = try Self.decode(WorkModeSetting.self, value).mode
            guard WorkMode(rawValue: mode) != nil, mode >= 0 else { throw Self.invalid("no work mode \(mode)") }
            workMode = mode
        case DeviceSettingName.volume:
            let level = try Self.decode(VolumeSetting.self, value).level
            guard level <= Self.maxVolume else { throw Self.invalid("the volume goes up to \(Self.maxVolume), not \(level)") }
            volume = level
        case DeviceSettingName.equalizer:
            let eq = try Self.decode(EqualizerSetting.self, value)
            guard let mode = EqualizerMode(rawValue: eq.mode), mode != .unknown else { throw Self.invalid("no preset \(eq.mode)") }
            if let bands = eq.bands {
                guard bands.count == Self.bandCount else { throw Self.invalid("the equalizer has \(Self.bandCount) bands") }
                guard bands.allSatisfy(Self.bandRange.contains) else { throw Self.invalid("a band gain must be within \(Self.bandRange)") }
                eqBands = bands
            }
            eqMode = mode.rawValue
        case DeviceSettingName.anc:
            let anc = try Self.decode(ANCSetting.self, value)
            guard let mode = AncMode(rawValue: anc.mode), mode != .unknown else { throw Self.invalid("no ANC mode \(anc.mode)") }
            if mode == .off, anc.gain != nil || anc.fade != nil { throw Self.invalid("ANC off has no gain or fade") }
            if let gain = anc.gain {
                guard gain <= Self.maxGain else { throw Self.invalid("the ANC gain goes up to \(Self.maxGain)") }
                if mode == .ancOn { ancGain = gain } else { transparencyGain = gain }
            }
            if let fade = anc.fade {
                guard fade <= Self.maxFade else { throw Self.invalid("a fade lasts at most \(Self.maxFade) ms") }
                ancFade = fade
            }
            ancMode = mode.rawValue
        case DeviceSettingName.wear:
            wearEnabled = try Self.decode(WearSetting.self, value).enabled
        case DeviceSettingName.keys:
            let keys = try Self.decode(KeysSetting.self, value).keys
            for key in keys {
                guard PhysicalOperation(rawValue: key.op) != nil else { throw Self.invalid("no physical operation \(key.op)") }
                guard PhysicalOperationFunction(rawValue: key.fn) != nil else { throw Self.invalid("no function \(key.fn)") }
            }
            for key in keys {
                if let index = self.keys.firstIndex(where: { $0.op == key.op }) { self.keys[index] = key } else { self.keys.append(key) }
            }
        case DeviceSettingName.shutter:
            shutter = try Self.decode(EnabledSetting.self, value).enabled
        case DeviceSettingName.voiceAssistant:
            voiceAssistant = try Self.decode(EnabledSetting.self, value).enabled
        case DeviceSettingName.tws, DeviceSettingName.media, DeviceSettingName.apps, DeviceSettingName.serviceAuth,
            DeviceSettingName.teleprompter, DeviceSettingName.navigation, DeviceSettingName.navigationAlert,
            DeviceSettingName.camera, DeviceSettingName.findPhone:
            throw EmulatorError(.badState, "\(name) is changed by actions, not written")
        default:
            throw EmulatorError(.notSupported, "no setting \(name)")
        }
        return changes(since: before)
    }

    /// Performs a Device `action`; returns the setting it acts on and the settings that changed.
    mutating func act(_ name: String, _ args: CBOR?) throws(EmulatorError) -> (setting: String, changed: [String]) {
        let before = self
        let setting: String
        switch name {
        case DeviceActionName.music:
            let raw = try Self.decode(MusicActionArgs.self, args).command
            guard let command = MusicControlCommand(rawValue: raw) else { throw Self.invalid("no music command \(raw)") }
            setting = command == .volumeUp || command == .volumeDown ? DeviceSettingName.volume : DeviceSettingName.media
            music(command)
        case DeviceActionName.appStart, DeviceActionName.appStop:
            setting = DeviceSettingName.apps
            let id = try Self.decode(AppActionArgs.self, args).id
            guard Self.installedApps.contains(where: { $0.0 == id }) else { throw EmulatorError(.notFound, "no app \(id)") }
            if name == DeviceActionName.appStart {
                guard !runningApps.contains(id) else { throw EmulatorError(.badState, "\(id) is already running") }
                runningApps.append(id)
            } else {
                guard runningApps.contains(id) else { throw EmulatorError(.badState, "\(id) is not running") }
                runningApps.removeAll { $0 == id }
            }
        case DeviceActionName.authRetry:
            setting = DeviceSettingName.serviceAuth
            guard authState != 1 else { throw EmulatorError(.busy, "an authorization is running") }
            authAttempts += 1
            authState = 1
        case DeviceActionName.authReport:
            setting = DeviceSettingName.serviceAuth
            let success = try Self.decode(AuthReportArgs.self, args).success
            authState = success ? 2 : 3
        case DeviceActionName.teleprompterText:
            setting = DeviceSettingName.teleprompter
            let text = try Self.decode(TeleprompterTextArgs.self, args).text
            guard !text.isEmpty, text.count <= Self.maxTextLength else {
                throw Self.invalid("teleprompter text must be 1 to \(Self.maxTextLength) characters")
            }
            pages = Self.paginate(text)
            page = 0
            position = 0
        case DeviceActionName.teleprompterScroll:
            setting = DeviceSettingName.teleprompter
            let scroll = try Self.decode(TeleprompterScrollArgs.self, args)
            guard !pages.isEmpty else { throw EmulatorError(.badState, "the teleprompter shows no text") }
            let target = scroll.page ?? page
            guard target < UInt64(pages.count), scroll.position <= 100 else {
                throw Self.invalid("page \(target) at \(scroll.position)% is outside the \(pages.count) pages")
            }
            page = target
            position = scroll.position
        case DeviceActionName.teleprompterClose:
            setting = DeviceSettingName.teleprompter
            guard !pages.isEmpty else { throw EmulatorError(.badState, "the teleprompter is closed") }
            pages = []
            page = 0
            position = 0
        case DeviceActionName.navigationShow:
            setting = DeviceSettingName.navigation
            var instruction = try Self.decode(NavigationSetting.self, args)
            guard let maneuver = instruction.maneuver, !maneuver.isEmpty, instruction.distance != nil else {
                throw Self.invalid("an instruction needs a maneuver and a distance")
            }
            guard NavigationManeuver(wireName: maneuver) != .unknown else { throw Self.invalid("no maneuver \(maneuver)") }
            guard (instruction.street ?? "").count <= 200 else { throw Self.invalid("a street name is at most 200 characters") }
            instruction.active = nil
            navigation = instruction
        case DeviceActionName.navigationStop:
            setting = DeviceSettingName.navigation
            guard navigation != nil else { throw EmulatorError(.badState, "no navigation is running") }
            navigation = nil
            navigationAlert = nil
        case DeviceActionName.navigationAlert:
            setting = DeviceSettingName.navigationAlert
            var alert = try Self.decode(NavigationAlertSetting.self, args)
            guard let kind = alert.kind, NavigationAlertKind(wireName: kind) != .unknown else {
                throw Self.invalid("no alert kind \(alert.kind ?? "(none)")")
            }
            guard (alert.distance ?? 0) <= 1_000_000 else { throw Self.invalid("an alert is at most 1,000 km ahead") }
            alert.active = nil
            navigationAlert = alert
        case DeviceActionName.phoneFound:
            setting = DeviceSettingName.findPhone
            guard findingPhone else { throw EmulatorError(.badState, "the wearer is not looking for the phone") }
            findingPhone = false
        default:
            throw EmulatorError(.notSupported, "no action \(name)")
        }
        return (setting, changes(since: before))
    }

    /// Applies a music command to the media session.
    mutating func music(_ command: MusicControlCommand) {
        let count = UInt64(Self.playlist.count)
        switch command {
        case .play: mediaState = 1
        case .pause: if mediaState == 1 { mediaState = 2 }
        case .next: track = (track + 1) % count
        case .previous: track = (track + count - 1) % count
        case .volumeUp: volume = min(Self.maxVolume, volume + 1)
        case .volumeDown: volume = volume > 0 ? volume - 1 : 0
        }
    }

    /// Splits text into pages of at most ``pageLength`` characters, at spaces where possible.
    static func paginate(_ text: String) -> [String] {
        var pages: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            if !current.isEmpty, current.count + 1 + word.count > pageLength {
                pages.append(current)
                current = ""
            }
            current += current.isEmpty ? String(word) : " " + word
            while current.count > pageLength {
                pages.append(String(current.prefix(pageLength)))
                current = String(current.dropFirst(pageLength))
            }
        }
        if !current.isEmpty { pages.append(current) }
        return pages
    }

    /// The settings whose value maps differ between `before` and now.
    func changes(since before: ControlState) -> [String] {
        DeviceSettingName.all.filter { value($0, camera: "") != before.value($0, camera: "") }
    }
}
