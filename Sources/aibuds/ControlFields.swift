import AIBuds
import AIBudsFoundation
import Foundation

/// A value of `aibuds control`/`aibuds events` output: text for people, JSON with `--json`.
enum FieldValue: Encodable {
    case text(String)
    case number(Int)
    case flag(Bool)
    case list([FieldValue])
    case none

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .text(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .flag(let value): try container.encode(value)
        case .list(let values): try container.encode(values)
        case .none: try container.encodeNil()
        }
    }

    /// The value as one line of text (device text escaped by TerminalText).
    var text: String {
        switch self {
        case .text(let value): return TerminalText.safe(value)
        case .number(let value): return "\(value)"
        case .flag(let value): return value ? "on" : "off"
        case .list(let values): return values.map(\.text).joined(separator: ", ")
        case .none: return "-"
        }
    }
}

/// Named output fields in order, printed as aligned lines or as one JSON object.
struct Fields: Encodable {
    var pairs: [(String, FieldValue)] = []

    mutating func add(_ key: String, _ value: FieldValue) { pairs.append((key, value)) }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for (key, value) in pairs { try container.encode(value, forKey: Key(key)) }
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Aligned `key  value` lines.
    var lines: [String] {
        let width = (pairs.map(\.0.count).max() ?? 0) + 2
        return pairs.map { $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + $0.1.text }
    }

    /// One line: `key=value key=value`.
    var inline: String { pairs.map { "\($0.0)=\($0.1.text)" }.joined(separator: " ") }

    /// Compact JSON of the fields.
    func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}

/// The output fields of each state event (`aibuds events`) and of each capability's state
/// (`aibuds control`).
enum ControlFields {
    static func optional(_ value: Int?) -> FieldValue { value.map(FieldValue.number) ?? .none }

    /// The event's kind and fields.
    static func event(_ event: DeviceStateEvent) -> (String, Fields) {
        var f = Fields()
        let kind: String
        switch event {
        case .battery(let value): kind = "battery"; f.add("level", .number(value.level.intValue)); f.add("charging", .flag(value.isCharging))
        case .workState(let value): kind = "workState"; f.add("state", .text("\(value)"))
        case .storage(let value): kind = "storage"; f.add("used_mb", .number(value.usedSpaceInMB.intValue)); f.add("free_mb", .number(value.freeSpaceInMB.intValue))
        case .mediaCount(let value):
            kind = "mediaCount"
            f.add("photos", .number(value.photoCount.intValue)); f.add("videos", .number(value.videoCount.intValue)); f.add("audios", .number(value.audioCount.intValue))
        case .hotspotState(let value): kind = "hotspotState"; f.add("state", .text("\(value)"))
        case .hotspotAddress(let value): kind = "hotspotAddress"; f.add("address", .text(value))
        case .mediaChanged(let generation, let types):
            kind = "mediaChanged"; f.add("generation", .text("\(generation)")); f.add("types", .list(types.map { .text("\($0)") }))
        case .firmwareVersion(let value): kind = "firmwareVersion"; f.add("version", .text(value))
        case .language(let value): kind = "language"; f.add("language", .text(value.rawValue))
        case .fileDeletingProgress(let value): kind = "fileDeletingProgress"; f.add("progress", .text("\(value)"))
        case .supportedLanguages(let value): kind = "supportedLanguages"; f.add("languages", .list(value.map { .text($0.rawValue) }))
        case .maxAudioRecordDuration(let value): kind = "maxAudioRecordDuration"; f.add("seconds", .number(value))
        case .maxVideoRecordDuration(let value): kind = "maxVideoRecordDuration"; f.add("seconds", .number(value))
        case .workMode(let value): kind = "workMode"; f.add("mode", .text("\(value)"))
        case .volume(let level, let max): kind = "volume"; f.add("level", .number(level)); f.add("max", optional(max))
        case .equalizer(let mode, let bands, let range):
            kind = "equalizer"; f.add("mode", .text("\(mode)")); f.add("bands", .list(bands.map(FieldValue.number)))
            if let range { f.add("band_min", .number(range.lowerBound)); f.add("band_max", .number(range.upperBound)) }
        case .anc(let mode, let gain, let fade): kind = "anc"; f.add("mode", .text("\(mode)")); f.add("gain", optional(gain)); f.add("fade_ms", optional(fade))
        case .wear(let enabled, let status, let left, let right):
            kind = "wear"; f.add("detection", .flag(enabled)); f.add("status", .text("\(status)")); f.add("left", .text("\(left)")); f.add("right", .text("\(right)"))
        case .tws(let value):
            kind = "tws"; f.add("state", .text("\(value.connectionState)")); f.add("left_battery", .number(value.leftBattery))
            f.add("right_battery", .number(value.rightBattery)); f.add("case_battery", .number(value.caseBattery)); f.add("case_open", .flag(value.isCaseOpen))
        case .mediaSession(let value):
            kind = "media"; f.add("state", .text("\(value.state)")); f.add("track", .number(value.trackIndex)); f.add("tracks", .number(value.trackCount)); f.add("title", .text(value.title))
        case .physicalOperationMapping(let value):
            kind = "keys"
            for operation in PhysicalOperation.allCases { f.add("\(operation)", value[operation].map { .text("\($0)") } ?? .none) }
        case .remoteShutter(let enabled): kind = "shutter"; f.add("enabled", .flag(enabled))
        case .voiceAssistant(let enabled): kind = "assistant"; f.add("enabled", .flag(enabled))
        case .apps(let apps):
            kind = "apps"
            for app in apps { f.add(app.identifier, .text(app.isRunning ? "running" : "stopped")) }
        case .serviceAuth(let state, let attempts): kind = "auth"; f.add("state", .text("\(state)")); f.add("attempts", .number(attempts))
        case .teleprompter(let value):
            kind = "teleprompter"; f.add("open", .flag(value.isOpen)); f.add("pages", .number(value.pageCount)); f.add("page", .number(value.page)); f.add("position", .number(value.position))
        case .navigation(let value):
            kind = "navigation"; f.add("active", .flag(value != nil))
            if let value { f.add("maneuver", .text(value.maneuver.rawValue)); f.add("distance_m", .number(value.distanceInMeters)); f.add("street", .text(value.text)) }
        case .navigationAlert(let value):
            kind = "navigationAlert"; f.add("active", .flag(value != nil))
            if let value {
                f.add("kind", .text(value.kind.rawValue))
                f.add("distance_m", value.distanceInMeters.map(FieldValue.number) ?? .none)
            }
        case .findPhone(let searching): kind = "findPhone"; f.add("searching", .flag(searching))
        case .cameraFirmwareVersion(let value): kind = "camera"; f.add("firmware", .text(value))
        case .physicalOperation(let side, let operation): kind = "keyPress"; f.add("side", .text(side)); f.add("operation", .text("\(operation)"))
        case .wakeWord(let word): kind = "wakeWord"; f.add("word", .text(word))
        case .remoteShutterPressed: kind = "shutterPressed"
        }
        return (kind, f)
    }
}
