import AIBuds
import AIBudsFoundation
import Foundation

/// The glasses' service verbs of `aibuds control` (shutter, apps, auth, assistant, teleprompter,
/// navigation, camera).
enum ControlServiceVerbs {
    typealias Action = ControlVerbs.Action

    private static func state(_ device: any DeviceConvertible, _ pick: (DeviceStatus) -> DeviceStateEvent?) -> Fields {
        guard let base = device as? BaseDevice, let event = pick(base.currentStatus) else { return Fields() }
        return ControlFields.event(event).1
    }

    static func parse(_ capability: String, _ verb: String?, _ args: [String]) throws -> Action {
        func arity(_ count: Int) throws {
            guard args.count == count else { throw CommandFailure.usage("'\(capability) \(verb ?? "")' takes \(count) argument(s)") }
        }
        func unknownVerb() -> CommandFailure {
            CommandFailure.usage("'\(capability)' has no verb '\(verb ?? "")' (aibuds control --help)")
        }
        switch capability {
        case "shutter":
            let enabled = try verb.map(ControlVerbs.onOff)
            try arity(0)
            return { device in
                let shutter = try ControlVerbs.api(device, (any DeviceRemoteShutterAPI).self, "remote shutter")
                if let enabled { try await shutter.syncRemoteShutterState(isEnabled: enabled) }
                return state(device) { $0.remoteShutterEnabled.map { .remoteShutter(enabled: $0) } }
            }
        case "apps":
            var change: (Bool, String)?
            switch verb {
            case "start"?, "stop"?: try arity(1); change = (verb == "start", args[0])
            case nil: break
            default: throw unknownVerb()
            }
            return { [change] device in
                let apps = try ControlVerbs.api(device, (any DeviceAppsAPI).self, "apps")
                if let (start, id) = change {
                    if start { try await apps.startApp(withIdentifier: id) } else { try await apps.stopApp(withIdentifier: id) }
                } else {
                    _ = try await apps.requestQueryApps()
                }
                return state(device) { .apps($0.apps) }
            }
        case "auth":
            var report: Bool?
            var retry = false
            switch verb {
            case "retry"?: try arity(0); retry = true
            case "report"?:
                try arity(1)
                switch args[0] {
                case "ok", "success": report = true
                case "failed", "failure": report = false
                default: throw CommandFailure.usage("report ok or failed, not '\(args[0])'")
                }
            case nil: break
            default: throw unknownVerb()
            }
            return { [report, retry] device in
                let auth = try ControlVerbs.api(device, (any DeviceServiceAuthAPI).self, "service authorization")
                if retry { try await auth.retryServiceAuth() } else if let report { try await auth.reportServiceAuthResult(report) } else {
                    _ = try await auth.requestQueryServiceAuthState()
                }
                return state(device) { .serviceAuth(state: $0.serviceAuthState, attempts: $0.serviceAuthAttempts ?? 0) }
            }
        case "assistant":
            let enabled = try verb.map(ControlVerbs.onOff)
            try arity(0)
            return { device in
                let assistant = try ControlVerbs.api(device, (any OnDeviceVoiceAssistantAPI).self, "voice assistant")
                if let enabled { try await assistant.setVoiceAssistantEnabled(enabled) }
                return state(device) { $0.voiceAssistantEnabled.map { .voiceAssistant(enabled: $0) } }
            }
        case "teleprompter":
            enum Step: Sendable { case show, text(String), scroll(Int, Int), close }
            let step: Step
            switch verb {
            case "text"?:
                guard !args.isEmpty else { throw CommandFailure.usage("'teleprompter text' takes the text") }
                step = .text(args.joined(separator: " "))
            case "scroll"?:
                try arity(2)
                step = .scroll(try ControlVerbs.number(args[0], "the page"), try ControlVerbs.number(args[1], "the position"))
            case "close"?: try arity(0); step = .close
            case nil: step = .show
            default: throw unknownVerb()
            }
            return { device in
                let prompter = try ControlVerbs.api(device, (any TeleprompterAPI).self, "teleprompter")
                switch step {
                case .show: break
                case .text(let text): try await prompter.sendTeleprompterText(text)
                case .scroll(let page, let position): try await prompter.scrollTeleprompter(toPage: page, position: position)
                case .close: try await prompter.closeTeleprompter()
                }
                return state(device) { $0.teleprompter.map(DeviceStateEvent.teleprompter) }
            }
        case "navigation":
            var instruction: NavigationInstruction?
            var alert: NavigationAlert?
            var stop = false
            switch verb {
            case "show"?:
                guard args.count >= 3 else { throw CommandFailure.usage("'navigation show' takes MANEUVER METRES STREET") }
                instruction = NavigationInstruction(
                    maneuver: try ControlVerbs.choice(args[0], NavigationManeuver.self), distanceInMeters: try ControlVerbs.number(args[1], "the distance"),
                    text: args.dropFirst(2).joined(separator: " "))
            case "alert"?:
                guard (1...2).contains(args.count) else { throw CommandFailure.usage("'navigation alert' takes KIND [METRES]") }
                alert = NavigationAlert(
                    kind: try ControlVerbs.choice(args[0], NavigationAlertKind.self),
                    distanceInMeters: try args.count > 1 ? ControlVerbs.number(args[1], "the distance") : nil)
            case "stop"?: try arity(0); stop = true
            case nil: break
            default: throw unknownVerb()
            }
            return { [instruction, alert, stop] device in
                let navigation = try ControlVerbs.api(device, (any TurnByTurnNavigationAPI).self, "navigation")
                if let instruction { try await navigation.sendNavigationInstruction(instruction) }
                if let alert { try await navigation.sendNavigationAlert(alert) }
                if stop { try await navigation.stopNavigation() }
                var fields = state(device) { .navigation($0.navigation) }
                let shown = state(device) { .navigationAlert($0.navigationAlert) }
                for (key, value) in shown.pairs where key != "active" { fields.add("alert_\(key)", value) }
                fields.add("alert", .flag(navigation.currentNavigationAlert != nil))
                return fields
            }
        case "camera":
            if verb != nil { throw unknownVerb() }
            return { device in
                let camera = try ControlVerbs.api(device, (any DeviceCameraAPI).self, "camera")
                var fields = Fields()
                fields.add("firmware", camera.cameraFirmwareVersion.map(FieldValue.text) ?? .none)
                return fields
            }
        default:
            return try ControlDeviceVerbs.parse(capability, verb, args)
        }
    }
}
