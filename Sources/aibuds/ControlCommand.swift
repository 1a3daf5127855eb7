import AIBuds
import AIBudsFoundation
import Foundation

/// `aibuds control --device D CAPABILITY [VERB [ARGS]] [--json]`: reads or changes one capability.
struct ControlCommand: CLICommand {
    static let path = ["control"]
    static let abstract = "Read or change a device control (ANC, EQ, volume, apps, teleprompter, ...)."
    static let help = """
        usage: aibuds control --device NAME|MAC|udp://HOST:PORT CAPABILITY [VERB [ARGS...]] [--json]

        Connects, runs the verb (none: only reads), prints the capability's state afterwards, and
        disconnects. A device without the capability exits 1 with the SDK's error; a value the device
        refuses (out of its limits) exits 1 with the device's status code.

        capabilities and verbs:
          anc            [set off|on|transparency [GAIN [FADE_MS]]]
          eq             [set normal|bassBoost|vocal|classical|rock|custom] [bands B1,B2,...]
          volume         [set LEVEL]
          workmode       [set normal|lowLatency]
          wear           [on|off]
          tws
          music          [play|pause|next|previous|volumeUp|volumeDown]
          keys           [set singleTap|doubleTap|tripleTap|longPress FUNCTION]
          shutter        [on|off]
          apps           [start ID | stop ID]
          auth           [retry | report ok|failed]
          assistant      [on|off]
          teleprompter   [text TEXT | scroll PAGE POSITION | close]
          navigation     [show MANEUVER METRES STREET | alert KIND [METRES] | stop]
          camera
          storage        [format]            (format deletes every media file on the device)
          find           [on | off | report-found]   (report-found: the wearer's phone was found)

        maneuvers: \(NavigationManeuver.allCases.filter { $0 != .unknown }.map(\.rawValue).joined(separator: ", "))
        alert kinds: \(NavigationAlertKind.allCases.filter { $0 != .unknown }.map(\.rawValue).joined(separator: ", "))

        options:
          --device DEVICE  a device name or MAC address, or udp://HOST:PORT
          --json           print the state as one JSON object
        """

    var device: String
    var json: Bool
    var words: [String]

    init(_ arguments: inout Arguments) throws {
        device = try arguments.required("--device")
        json = arguments.flag("--json")
        words = try arguments.positionals()
    }

    func validate() throws {
        guard !device.isEmpty else { throw CommandFailure.usage("--device must not be empty") }
        guard let capability = words.first else { throw CommandFailure.usage("name a capability (aibuds control --help)") }
        guard ControlVerbs.capabilities.contains(capability) else {
            throw CommandFailure.usage("unknown capability '\(capability)' (aibuds control --help)")
        }
        _ = try ControlVerbs.parse(words)
    }

    func run() async throws -> ExitCode {
        let action = try ControlVerbs.parse(words)
        DeviceCommandSupport.initializeSDK()
        let found = try await DeviceCommandSupport.find(device)
        let connected = try await DeviceCommandSupport.connect(found, naming: device)
        defer { connected.disconnect() }
        let state: Fields
        do {
            state = try await action(connected)
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            let sdk = AIBudsError.from(error)
            let code = sdk.deviceStatusCode.map { " (device status code \($0))" } ?? ""
            await connected.disconnectAndWait()
            throw CommandFailure.failure("\(words.joined(separator: " ")): \(sdk.message)\(code)")
        }
        await connected.disconnectAndWait()
        if json {
            CLI.sayJSON(try state.json())
        } else {
            for line in state.lines { CLI.say(line) }
        }
        return .ok
    }
}
