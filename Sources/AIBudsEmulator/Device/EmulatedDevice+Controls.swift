import AIBudsFoundation
import AIBudsCBOR
import AIBudsWire

/// The controls of the device (docs/protocol.md §3, "Controls"): Device `setting` and `action`, and
/// what the wearer does (for `--script` and tests). Every change raises the events of the settings
/// it changed, and settings persist with `--state`.
extension EmulatedDevice {
    /// The camera module's firmware version (glasses only).
    public var cameraFirmware: String { profile.hasCamera ? "CAM-" + (firmwareVersion(image: 1) ?? "1.2.0") : "" }

    /// Whether this profile has the setting `name`.
    public func hasSetting(_ name: String) -> Bool { ControlState.settings(of: profile.kind).contains(name) }

    private func requireSetting(_ name: String) throws(EmulatorError) {
        guard hasSetting(name) else {
            throw EmulatorError(.notSupported, "the \(profile.kind.rawValue) profile has no \(name)")
        }
    }

    /// The value map of setting `name` (rc 4 when the profile lacks it).
    public func setting(_ name: String) throws(EmulatorError) -> CBOR {
        try requireSetting(name)
        let firmware = cameraFirmware
        return try withControls { controls throws(EmulatorError) in (controls.value(name, camera: firmware), []) }
    }

    /// Writes setting `name` with the fields of `value`, checking the device's limits; returns the
    /// new value map.
    public func writeSetting(_ name: String, _ value: CBOR) throws(EmulatorError) -> CBOR {
        try requireSetting(name)
        let firmware = cameraFirmware
        return try withControls { controls throws(EmulatorError) in
            let changed = try controls.write(name, value)
            return (controls.value(name, camera: firmware), changed)
        }
    }

    /// Performs action `name` with `args`; returns the setting it acted on and its new value map.
    public func performAction(_ name: String, _ args: CBOR?) throws(EmulatorError) -> (setting: String, value: CBOR) {
        let firmware = cameraFirmware
        let setting = try withControls { controls throws(EmulatorError) -> (String, [String]) in
            var probe = controls
            let (setting, changed) = try probe.act(name, args)
            guard hasSetting(setting) else {
                throw EmulatorError(.notSupported, "the \(profile.kind.rawValue) profile has no \(setting)")
            }
            controls = probe
            return (setting, changed)
        }
        if name == DeviceActionName.authRetry { scheduleAuthorization() }
        let value = try withControls { controls throws(EmulatorError) in (controls.value(setting, camera: firmware), []) }
        return (setting, value)
    }

    /// An authorization the device started ends authorized a moment later, as the service answers.
    private func scheduleAuthorization() {
        clockSchedule(after: .milliseconds(200)) { [weak self] in
            _ = try? self?.withControls { controls throws(EmulatorError) in
                let before = controls
                if controls.authState == 1 { controls.authState = 2 }
                return ((), controls.changes(since: before))
            }
        }
    }

    // MARK: - The wearer

    /// Which bud a wearer action concerns.
    public enum Bud: String, Sendable, CaseIterable {
        // docs: the two buds of a pair, by ear
        case left, right
    }

    /// The wearer puts a bud in (`worn`) or takes it out; with wear detection on, taking the last
    /// bud out pauses playback and putting one in resumes what that paused.
    public func setWorn(_ bud: Bud, _ worn: Bool) throws(EmulatorError) {
        try requireSetting(DeviceSettingName.wear)
        try withControls { controls throws(EmulatorError) in
            let before = controls
            let wasWorn = controls.wearStatus == .worn
            if bud == .left { controls.leftWorn = worn } else { controls.rightWorn = worn }
            if controls.wearEnabled, wasWorn, controls.wearStatus == .notWorn, controls.mediaState == 1 {
                controls.mediaState = 2
            }
            return ((), controls.changes(since: before))
        }
    }

    /// The wearer does `operation` on `bud` (nil: the device's only button): a `keyPress` event, then
    /// the function mapped to it.
    public func press(_ operation: PhysicalOperation, on bud: Bud?) throws(EmulatorError) {
        try requireSetting(DeviceSettingName.keys)
        appendEvent(DeviceGestureEventKind.keyPress, (try? CBOREncoder().encodeValue(
            KeyPressEvent(side: bud?.rawValue ?? "device", op: operation.rawValue))) ?? .map([:]))
        let function = try withControls { controls throws(EmulatorError) in
            (controls.keys.first { $0.op == operation.rawValue }.flatMap { PhysicalOperationFunction(rawValue: $0.fn) }, [])
        }
        switch function {
        case .playPause?:
            try withControls { controls throws(EmulatorError) in
                let before = controls
                controls.music(controls.mediaState == 1 ? .pause : .play)
                return ((), controls.changes(since: before))
            }
        case .nextTrack?, .previousTrack?:
            try withControls { controls throws(EmulatorError) in
                let before = controls
                controls.music(function == .nextTrack ? .next : .previous)
                return ((), controls.changes(since: before))
            }
        case .takePhoto?:
            let shutter = try withControls { controls throws(EmulatorError) in (controls.shutter, []) }
            if shutter { appendEvent(DeviceGestureEventKind.shutterPressed, .map([:])) } else { _ = try takePhoto() }
        case .toggleVideoRecording?:
            if workState == .recordingVideo { _ = try stopRecording(video: true) } else { try startRecording(video: true) }
        case .voiceAssistant?:
            try wakeWord("Hey Buds")
        case .none?, nil:
            break
        }
    }

    /// The wearer asks the glasses to find the phone: the `findPhone` setting turns on (its event
    /// tells the app to ring) until the app reports the phone found (`phone.found`).
    public func askForPhone() throws(EmulatorError) {
        try requireSetting(DeviceSettingName.findPhone)
        try withControls { controls throws(EmulatorError) in
            let before = controls
            controls.findingPhone = true
            return ((), controls.changes(since: before))
        }
    }

    /// The voice assistant hears `word`: a `wakeWord` event when the assistant is on (glasses), or
    /// when the keys start it (earbuds).
    public func wakeWord(_ word: String) throws(EmulatorError) {
        if hasSetting(DeviceSettingName.voiceAssistant) {
            let on = try withControls { controls throws(EmulatorError) in (controls.voiceAssistant, []) }
            guard on else { throw EmulatorError(.badState, "the voice assistant is off") }
        }
        appendEvent(DeviceGestureEventKind.wakeWord, (try? CBOREncoder().encodeValue(WakeWordEvent(word: word))) ?? .map([:]))
    }

    /// Sets a bud's or the case's charge (`bud` nil: the case), 0–100; the device battery follows
    /// the lower bud.
    public func setPairBattery(_ bud: Bud?, level: UInt64) throws(EmulatorError) {
        try requireSetting(DeviceSettingName.tws)
        let level = min(level, 100)
        let lowest = try withControls { controls throws(EmulatorError) in
            let before = controls
            switch bud {
            case .left?: controls.leftBattery = level
            case .right?: controls.rightBattery = level
            case nil: controls.caseBattery = level
            }
            return (min(controls.leftBattery, controls.rightBattery), controls.changes(since: before))
        }
        let current = battery()
        if Int(lowest) != current.level { setBattery(level: Int(lowest), charging: current.charging) }
    }

    /// Opens or closes the charging case's lid.
    public func setCaseOpen(_ open: Bool) throws(EmulatorError) {
        try requireSetting(DeviceSettingName.tws)
        try withControls { controls throws(EmulatorError) in
            let before = controls
            controls.caseOpen = open
            return ((), controls.changes(since: before))
        }
    }

    /// Links or unlinks the two buds (out of range of each other).
    public func setTWSLinked(_ linked: Bool) throws(EmulatorError) {
        try requireSetting(DeviceSettingName.tws)
        try withControls { controls throws(EmulatorError) in
            let before = controls
            controls.twsConnected = linked
            return ((), controls.changes(since: before))
        }
    }
}
