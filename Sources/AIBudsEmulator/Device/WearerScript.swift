import AIBudsFoundation
import Foundation

/// A scenario of what the wearer does, for `--script FILE` (docs/emulator.md, "Scenario scripts"):
/// one step per line, `TIME ACTION ARGS`, run on the device's clock from the emulator's start.
///
/// ```
/// # seconds  action
/// 5    remove left          # take the left bud out
/// 8    press right doubleTap
/// 10   battery left -5      # relative to the current level
/// 12   insert left
/// 30   battery 50 charging
/// ```
public struct WearerScript: Sendable, Equatable {
    /// What one step does.
    public enum Action: Sendable, Equatable {
        /// Takes a bud out (`remove`) or puts it in (`insert`).
        case wear(EmulatedDevice.Bud, worn: Bool)
        /// A physical operation on a bud, or on the device's only button (`device`).
        case press(EmulatedDevice.Bud?, PhysicalOperation)
        /// Sets a bud's, the case's (`case`) or, without a part, the device's charge; `relative`
        /// adds `level` to the current one; `charging` sets the device's charging flag.
        case battery(part: String?, level: Int, relative: Bool, charging: Bool?)
        /// Opens or closes the charging case.
        case caseLid(open: Bool)
        /// Links or unlinks the two buds.
        case tws(linked: Bool)
        /// The voice assistant hears a wake word.
        case wake(String)
        /// The wearer asks the glasses to find the phone.
        case findPhone
    }

    /// One step: when, from the start, and what.
    public struct Step: Sendable, Equatable {
        /// The time after the emulator's start.
        public var at: Duration
        /// The wearer's action.
        public var action: Action
    }

    /// The steps, in file order.
    public var steps: [Step]

    /// Parses a script; a bad line is an `invalidConfiguration` error naming its line number.
    public init(parsing text: String) throws(EmulatorError) {
        steps = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).map(String.init)
            guard !words.isEmpty else { continue }
            do {
                steps.append(try Self.step(words))
            } catch {
                throw EmulatorError(.invalidConfiguration, "script line \(index + 1): \(error.message)")
            }
        }
    }

    /// Reads and parses the script at `url`.
    public init(contentsOf url: URL) throws(EmulatorError) {
        let text: String
        do { text = try String(contentsOf: url, encoding: .utf8) } catch {
            throw EmulatorError(.invalidConfiguration, "cannot read the script \(url.path)", underlying: error)
        }
        try self.init(parsing: text)
    }

    private static func bad(_ message: String) -> EmulatorError { EmulatorError(.invalidConfiguration, message) }

    private static func time(_ text: String) throws(EmulatorError) -> Duration {
        let (number, scale): (Substring, Double) =
            text.hasSuffix("ms") ? (text.dropLast(2), 0.001) : text.hasSuffix("s") ? (text.dropLast(), 1) : (Substring(text), 1)
        guard let value = Double(number), value >= 0, value * scale <= 31_536_000 else {
            throw bad("'\(text)' is not a time (seconds, or 500ms)")
        }
        return .milliseconds(Int64((value * scale * 1000).rounded()))
    }

    private static func bud(_ text: String) throws(EmulatorError) -> EmulatedDevice.Bud {
        guard let bud = EmulatedDevice.Bud(rawValue: text) else { throw bad("'\(text)' is not left or right") }
        return bud
    }

    private static func step(_ words: [String]) throws(EmulatorError) -> Step {
        let at = try time(words[0])
        guard words.count >= 2 else { throw bad("a step needs an action after its time") }
        let args = Array(words.dropFirst(2))
        func count(_ range: ClosedRange<Int>) throws(EmulatorError) {
            guard range.contains(args.count) else { throw bad("'\(words[1])' takes \(range.lowerBound)–\(range.upperBound) words") }
        }
        switch words[1] {
        case "remove", "insert":
            try count(1...1)
            return Step(at: at, action: .wear(try bud(args[0]), worn: words[1] == "insert"))
        case "press":
            try count(2...2)
            let side: EmulatedDevice.Bud? = args[0] == "device" ? nil : try bud(args[0])
            guard let operation = PhysicalOperation.allCases.first(where: { "\($0)" == args[1] }) else {
                throw bad("'\(args[1])' is not singleTap, doubleTap, tripleTap or longPress")
            }
            return Step(at: at, action: .press(side, operation))
        case "battery":
            try count(1...3)
            var rest = args
            var part: String?
            if ["left", "right", "case"].contains(rest[0]) { part = rest.removeFirst() }
            guard let levelText = rest.first, let level = Int(levelText) else { throw bad("battery takes a level (or +N/-N)") }
            rest.removeFirst()
            var charging: Bool?
            if let flag = rest.first {
                guard part == nil, flag == "charging" || flag == "discharging" else {
                    throw bad("after the device's level, say charging or discharging")
                }
                charging = flag == "charging"
            }
            let relative = levelText.hasPrefix("+") || levelText.hasPrefix("-")
            guard relative || (0...100).contains(level) else { throw bad("a battery level is 0 to 100") }
            return Step(at: at, action: .battery(part: part, level: level, relative: relative, charging: charging))
        case "case":
            try count(1...1)
            guard ["open", "closed", "close"].contains(args[0]) else { throw bad("case takes open or closed") }
            return Step(at: at, action: .caseLid(open: args[0] == "open"))
        case "tws":
            try count(1...1)
            guard ["linked", "unlinked"].contains(args[0]) else { throw bad("tws takes linked or unlinked") }
            return Step(at: at, action: .tws(linked: args[0] == "linked"))
        case "wake":
            guard !args.isEmpty else { throw bad("wake takes the word heard") }
            return Step(at: at, action: .wake(args.joined(separator: " ")))
        case "findphone":
            try count(0...0)
            return Step(at: at, action: .findPhone)
        default:
            throw bad("unknown action '\(words[1])' (remove, insert, press, battery, case, tws, wake, findphone)")
        }
    }
}

extension EmulatedDevice {
    /// Schedules every step of `script` on the device's clock; a step the profile cannot do is
    /// logged and skipped.
    public func run(_ script: WearerScript) {
        for step in script.steps {
            clockSchedule(after: step.at) { [weak self] in
                guard let self, self.isPoweredOn else { return }
                do { try self.perform(step.action) } catch {
                    self.logWarning("script step at \(step.at) failed: \(error)")
                }
            }
        }
    }

    /// Does one wearer action now.
    public func perform(_ action: WearerScript.Action) throws(EmulatorError) {
        switch action {
        case .wear(let bud, let worn): try setWorn(bud, worn)
        case .press(let bud, let operation): try press(operation, on: bud)
        case .battery(let part, let level, let relative, let charging):
            switch part {
            case nil:
                let current = battery()
                setBattery(level: relative ? current.level + level : level, charging: charging ?? current.charging)
            case "case"?:
                try setPairBattery(nil, level: try partLevel(nil, level, relative))
            default:
                let bud = part == "left" ? Bud.left : .right
                try setPairBattery(bud, level: try partLevel(bud, level, relative))
            }
        case .caseLid(let open): try setCaseOpen(open)
        case .tws(let linked): try setTWSLinked(linked)
        case .wake(let word): try wakeWord(word)
        case .findPhone: try askForPhone()
        }
    }

    private func partLevel(_ bud: Bud?, _ level: Int, _ relative: Bool) throws(EmulatorError) -> UInt64 {
        guard relative else { return UInt64(max(0, min(100, level))) }
        let current = try withControls { controls throws(EmulatorError) -> (UInt64, [String]) in
            switch bud {
            case .left?: return (controls.leftBattery, [])
            case .right?: return (controls.rightBattery, [])
            case nil: return (controls.caseBattery, [])
            }
        }
        return UInt64(max(0, min(100, Int(current) + level)))
    }
}
