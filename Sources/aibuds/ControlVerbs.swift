import AIBuds
import AIBudsFoundation
import Foundation

/// The verbs of `aibuds control`: each parses to an action that runs it on a connected device and
/// returns the capability's state afterwards.
enum ControlVerbs {
    typealias Action = @Sendable (any DeviceConvertible) async throws -> Fields

    static let capabilities: Set<String> = Set([
        "anc", "eq", "volume", "workmode", "wear", "tws", "music", "keys", "shutter", "apps", "auth", "assistant",
        "teleprompter", "navigation", "camera",
    ]).union(ControlDeviceVerbs.capabilities)

    /// The case of `E` whose name is `text` (case-insensitive), or a usage error listing the names.
    static func choice<E: CaseIterable>(_ text: String, _ type: E.Type, aliases: [String: E] = [:], skipping: [String] = ["unknown"]) throws -> E {
        if let alias = aliases[text.lowercased()] { return alias }
        if let match = E.allCases.first(where: { "\($0)".caseInsensitiveCompare(text) == .orderedSame && !skipping.contains("\($0)") }) {
            return match
        }
        let names = E.allCases.map { "\($0)" }.filter { !skipping.contains($0) }
        throw CommandFailure.usage("'\(text)' is not one of \(names.joined(separator: ", "))")
    }

    static func number(_ text: String, _ what: String) throws -> Int {
        guard let value = Int(text) else { throw CommandFailure.usage("\(what) takes a number, not '\(text)'") }
        return value
    }

    static func onOff(_ text: String) throws -> Bool {
        switch text.lowercased() {
        case "on", "true", "1", "enable": return true
        case "off", "false", "0", "disable": return false
        default: throw CommandFailure.usage("say on or off, not '\(text)'")
        }
    }

    /// The capability protocol `P` of the device, or the SDK's clear error.
    static func api<P>(_ device: any DeviceConvertible, _ type: P.Type, _ name: String) throws -> P {
        guard let api = device as? P else {
            throw CommandFailure.failure("\(device.name) (\(device.product)) has no \(name) (it is not a \(P.self))")
        }
        return api
    }

    private static func state(_ device: any DeviceConvertible, _ pick: (DeviceStatus) -> DeviceStateEvent?) -> Fields {
        guard let base = device as? BaseDevice, let event = pick(base.currentStatus) else { return Fields() }
        return ControlFields.event(event).1
    }

    /// Parses `words` (capability, verb, arguments) into an action.
    static func parse(_ words: [String]) throws -> Action {
        let capability = words.first ?? ""
        let verb = words.count > 1 ? words[1] : nil
        let args = Array(words.dropFirst(2))
        func arity(_ count: ClosedRange<Int>) throws {
            guard count.contains(args.count) else {
                throw CommandFailure.usage("'\(capability) \(verb ?? "")' takes \(count.lowerBound == count.upperBound ? "\(count.lowerBound)" : "\(count.lowerBound) to \(count.upperBound)") argument(s)")
            }
        }
        func badVerb() -> CommandFailure {
            CommandFailure.usage("'\(capability)' has no verb '\(verb ?? "")' (aibuds control --help)")
        }
        func noVerb() throws {
            if verb != nil { throw badVerb() }
        }
        switch capability {
        case "anc":
            var change: (AncMode, Int?, Int?)?
            if let verb {
                guard verb == "set" else { throw badVerb() }
                try arity(1...3)
                let mode = try choice(args[0], AncMode.self, aliases: ["on": .ancOn])
                change = (mode, try args.count > 1 ? number(args[1], "the gain") : nil, try args.count > 2 ? number(args[2], "the fade") : nil)
            }
            return { [change] device in
                let anc = try api(device, (any DeviceANCAPI).self, "noise cancellation")
                if let change { try await anc.setAncMode(change.0, gain: change.1, fadeMilliseconds: change.2) } else { _ = try await anc.requestQueryAncMode() }
                return state(device) { .anc(mode: $0.ancMode, gain: $0.ancGain, fade: $0.ancFade) }
            }
        case "eq":
            var preset: EqualizerMode?
            var bands: [Int]?
            switch verb {
            case "set"?: try arity(1...1); preset = try choice(args[0], EqualizerMode.self)
            case "bands"?:
                try arity(1...1)
                bands = try args[0].split(separator: ",").map { try number(String($0), "a band") }
            case nil: break
            default: throw badVerb()
            }
            return { [preset, bands] device in
                let eq = try api(device, (any DeviceEqualizerAPI).self, "equalizer")
                if let preset { try await eq.setEqualizerMode(preset) } else if let bands { try await eq.setEqualizerBands(bands) } else {
                    _ = try await eq.requestQueryEqualizer()
                }
                return state(device) { .equalizer(mode: $0.equalizerMode, bands: $0.equalizerBands, bandRange: $0.equalizerBandRange) }
            }
        case "volume":
            var level: Int?
            if let verb { guard verb == "set" else { throw badVerb() }; try arity(1...1); level = try number(args[0], "the level") }
            return { [level] device in
                let volume = try api(device, (any DeviceVolumeControlAPI).self, "volume control")
                if let level { try await volume.setVolume(NSNumber(value: level)) } else { _ = try await volume.requestQueryVolume() }
                return state(device) { status in status.volume.map { .volume(level: $0, max: status.maxVolume) } }
            }
        case "workmode":
            var mode: WorkMode?
            if let verb { guard verb == "set" else { throw badVerb() }; try arity(1...1); mode = try choice(args[0], WorkMode.self) }
            return { [mode] device in
                let work = try api(device, (any DeviceWorkModeAPI).self, "work mode")
                if let mode { try await work.setWorkMode(mode) } else { _ = try await work.requestQueryWorkMode() }
                return state(device) { .workMode($0.workMode) }
            }
        case "wear":
            let enabled = try verb.map(onOff)
            try arity(0...0)
            return { device in
                let wear = try api(device, (any DeviceWearDetectionAPI).self, "wear detection")
                if let enabled { try await wear.setWearDetectionEnabled(enabled) } else { _ = try await wear.requestQueryWearStatus() }
                return state(device) { status in
                    status.wearDetectionEnabled.map {
                        .wear(enabled: $0, status: status.wearStatus, left: status.leftWearStatus, right: status.rightWearStatus)
                    }
                }
            }
        case "tws":
            try noVerb()
            return { device in
                _ = try await api(device, (any DeviceTWSAPI).self, "TWS pair").requestQueryTWSConnectionState()
                return state(device) { $0.tws.map(DeviceStateEvent.tws) }
            }
        case "music":
            let command = try verb.map { try choice($0, MusicControlCommand.self) }
            try arity(0...0)
            return { device in
                let music = try api(device, (any DeviceMusicControlAPI).self, "music control")
                if let command { try await music.sendMusicControl(command) } else { _ = try await music.requestQueryMediaSession() }
                return state(device) { $0.mediaSession.map(DeviceStateEvent.mediaSession) }
            }
        case "keys":
            var change: (PhysicalOperation, PhysicalOperationFunction)?
            if let verb {
                guard verb == "set" else { throw badVerb() }
                try arity(2...2)
                change = (try choice(args[0], PhysicalOperation.self), try choice(args[1], PhysicalOperationFunction.self, skipping: []))
            }
            return { [change] device in
                let keys = try api(device, (any DevicePhysicalOperationsAPI).self, "key mapping")
                if let change { try await keys.assignFunction(change.1, to: change.0) } else { _ = try await keys.requestQueryPhysicalOperationMapping() }
                return state(device) { .physicalOperationMapping($0.physicalOperationMapping) }
            }
        default:
            return try ControlServiceVerbs.parse(capability, verb, args)
        }
    }
}
