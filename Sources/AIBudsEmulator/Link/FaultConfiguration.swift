import AIBudsWire
import Foundation

/// The faults an emulator injects, parsed from `--fault SPEC` (repeatable; later keys win).
///
/// A spec is comma-separated `key=value` pairs:
///
/// | key | value | effect |
/// |---|---|---|
/// | `lose` | probability | drop a datagram (either direction) |
/// | `duplicate` | probability | deliver a datagram twice |
/// | `reorder` | probability | hold a datagram back 20–40 ms so later ones overtake it |
/// | `delay` | `MS` or `MS:probability` | add MS milliseconds to a datagram's delivery |
/// | `error` | probability | answer a request with a busy error without executing it |
/// | `refuse` | `GROUP/COMMAND:RC` | answer every request of that project command (group 64 and up) with project code RC (1–8) without executing it; repeatable |
/// | `seed` | integer | the seed of every random decision (default 1) |
/// | `slow-hotspot` | `MS` | the hotspot opens MS milliseconds after `enter transfer mode` |
/// | `http-drop` | byte offset | the data plane closes a connection just before that file byte |
/// | `http-stall` | `OFFSET:MS` | the data plane pauses MS milliseconds before that file byte |
/// | `http-delay` | `MS` | the data plane waits MS milliseconds before each response head |
/// | `http-fail` | count | the data plane answers the next COUNT requests with `500` |
/// | `ota-drop` | `OFFSET[:OFFSET...]` | the link drops (the device is silent) when a firmware upload passes each offset |
/// | `ota-drop-ms` | `MS` | how long each `ota-drop` lasts (default 2500) |
/// | `ota-corrupt` | byte offset | that byte of a firmware upload arrives flipped |
/// | `power-loss` | `swap` | the power fails during the swap of the next reset with a pending image |
/// | `ota-boot-fail` | `1` | a test image crashes at boot and the bootloader reverts at once |
public struct FaultConfiguration: Sendable, Equatable {
    /// Probability of losing a datagram.
    public var lose = 0.0
    /// Probability of duplicating a datagram.
    public var duplicate = 0.0
    /// Probability of reordering a datagram.
    public var reorder = 0.0
    /// Probability of delaying a datagram by ``delay``.
    public var delayProbability = 0.0
    /// The extra delay of a delayed datagram.
    public var delay = Duration.zero
    /// Probability of answering a request with a busy error.
    public var error = 0.0
    /// Project commands the device refuses with a fixed code (`refuse`).
    public var refusals: [Refusal] = []
    /// The seed of the random decisions.
    public var seed: UInt64 = 1
    /// How long the hotspot takes to open.
    public var slowHotspot = Duration.zero
    /// The faults handed to the HTTP data plane.
    public var http = DataPlaneFaults.none
    /// The firmware-update faults handed to the device.
    public var firmware = FirmwareFaults()

    /// A project command the device answers with a fixed non-zero code, never executing it.
    public struct Refusal: Sendable, Equatable {
        /// The project group (64 and up).
        public var group: UInt16
        /// The command within the group.
        public var command: UInt8
        /// The code the device answers with.
        public var code: ProjectReturnCode

        /// Refuses command `command` of project group `group` with `code`.
        public init(group: UInt16, command: UInt8, code: ProjectReturnCode) {
            self.group = group
            self.command = command
            self.code = code
        }
    }

    /// Creates a configuration with every fault off; set its fields, or parse a `--fault` list, to
    /// add some.
    public init() {}

    /// Whether any datagram fault is configured.
    public var disturbsDatagrams: Bool {
        lose > 0 || duplicate > 0 || reorder > 0 || (delayProbability > 0 && delay > .zero)
    }

    /// Parses and merges `specs`.
    public static func parse(_ specs: [String]) throws(EmulatorError) -> FaultConfiguration {
        var faults = FaultConfiguration()
        for spec in specs {
            for item in spec.split(separator: ",", omittingEmptySubsequences: true) {
                let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2 else { throw invalid("'\(item)' is not key=value") }
                try faults.apply(key: parts[0].trimmingCharacters(in: .whitespaces),
                                 value: parts[1].trimmingCharacters(in: .whitespaces))
            }
        }
        return faults
    }

    private mutating func apply(key: String, value: String) throws(EmulatorError) {
        switch key {
        case "lose": lose = try Self.probability(value, key)
        case "duplicate": duplicate = try Self.probability(value, key)
        case "reorder": reorder = try Self.probability(value, key)
        case "error": error = try Self.probability(value, key)
        case "delay":
            // Empty pieces kept: `delay=` is an error, not an index out of range.
            let parts = value.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            delay = try Self.milliseconds(parts[0], key)
            delayProbability = parts.count == 2 ? try Self.probability(parts[1], key) : 1
        case "refuse":
            refusals.append(try Self.refusal(value))
        case "seed":
            guard let seed = UInt64(value) else { throw Self.invalid("seed takes an unsigned integer, not '\(value)'") }
            self.seed = seed
        case "slow-hotspot": slowHotspot = try Self.milliseconds(value, key)
        case "http-drop": http.closeAtByte = try Self.byteOffset(value, key)
        case "http-stall":
            let parts = value.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { throw Self.invalid("http-stall takes OFFSET:MS, not '\(value)'") }
            http.stall = DataPlaneFaults.Stall(atByte: try Self.byteOffset(parts[0], key),
                                               duration: try Self.milliseconds(parts[1], key))
        case "http-trickle":
            let parts = value.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2, let rate = Int64(parts[1]), rate > 0 else {
                throw Self.invalid("http-trickle takes OFFSET:BYTES_PER_SECOND, not '\(value)'")
            }
            http.trickle = DataPlaneFaults.Trickle(atByte: try Self.byteOffset(parts[0], key), bytesPerSecond: rate)
        case "http-delay": http.firstByteDelay = try Self.milliseconds(value, key)
        case "http-fail":
            guard let count = Int(value), count >= 0 else { throw Self.invalid("http-fail takes a count, not '\(value)'") }
            http.failNextRequests = count
        case "ota-drop":
            var offsets: [Int] = []
            for part in value.split(separator: ":", omittingEmptySubsequences: false) {
                offsets.append(Int(try Self.byteOffset(String(part), key)))
            }
            firmware.dropAtOffsets = offsets
        case "ota-drop-ms": firmware.dropDuration = try Self.milliseconds(value, key)
        case "ota-corrupt": firmware.corruptAtOffset = Int(try Self.byteOffset(value, key))
        case "ota-boot-fail":
            guard value == "1" || value == "0" else { throw Self.invalid("ota-boot-fail takes 1 or 0, not '\(value)'") }
            firmware.testImageFailsToBoot = value == "1"
        case "power-loss":
            guard value == "swap" else { throw Self.invalid("power-loss takes 'swap', not '\(value)'") }
            firmware.powerLossDuringSwap = true
        default:
            throw Self.invalid("unknown fault '\(key)' (lose, duplicate, reorder, delay, error, refuse, seed, slow-hotspot, http-drop, http-stall, http-trickle, http-delay, http-fail, ota-drop, ota-drop-ms, ota-corrupt, ota-boot-fail, power-loss)")
        }
    }

    private static func refusal(_ value: String) throws(EmulatorError) -> Refusal {
        let usage = "refuse takes GROUP/COMMAND:RC (a project group 64 and up, a command, a code 1 to 8), not '\(value)'"
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 else { throw invalid(usage) }
        let route = parts[0].split(separator: "/", omittingEmptySubsequences: false)
        guard route.count == 2, let group = UInt16(route[0]), group >= 64, let command = UInt8(route[1]),
              let rc = Int(parts[1]), let code = ProjectReturnCode(rawValue: rc), code != .ok
        else { throw invalid(usage) }
        return Refusal(group: group, command: command, code: code)
    }

    private static func invalid(_ message: String) -> EmulatorError {
        EmulatorError(.invalidConfiguration, "--fault: \(message)")
    }

    private static func probability(_ text: String, _ key: String) throws(EmulatorError) -> Double {
        guard let value = Double(text), value >= 0, value <= 1 else {
            throw invalid("\(key) takes a probability from 0 to 1, not '\(text)'")
        }
        return value
    }

    private static func milliseconds(_ text: String, _ key: String) throws(EmulatorError) -> Duration {
        guard let value = UInt64(text), value <= 3_600_000 else {
            throw invalid("\(key) takes milliseconds (0 to 3600000), not '\(text)'")
        }
        return .milliseconds(Int64(value))
    }

    private static func byteOffset(_ text: String, _ key: String) throws(EmulatorError) -> Int64 {
        guard let value = Int64(text), value >= 0 else { throw invalid("\(key) takes a byte offset, not '\(text)'") }
        return value
    }
}

/// The datagram fault decisions of one link, seeded so that a run can be repeated.
struct DatagramFaults: Sendable {
    private let configuration: FaultConfiguration
    private var random: SeededRandom

    init(_ configuration: FaultConfiguration) {
        self.configuration = configuration
        random = SeededRandom(seed: configuration.seed)
    }

    /// The extra delays of the copies of one datagram to deliver: none when it is lost, two when
    /// it is duplicated.
    mutating func plan() -> [Duration] {
        if random.chance(configuration.lose) { return [] }
        var extra = Duration.zero
        if random.chance(configuration.delayProbability) { extra += configuration.delay }
        if random.chance(configuration.reorder) { extra += .milliseconds(20 + Int64(random.next() % 21)) }
        return random.chance(configuration.duplicate) ? [extra, extra + .milliseconds(1)] : [extra]
    }
}
