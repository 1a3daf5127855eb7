import AIBuds
import AIBudsEmulator
import AIBudsFoundation
import Foundation

/// `aibuds events --device D [--json]`: prints every state event of a device as it arrives.
struct EventsCommand: CLICommand {
    static let path = ["events"]
    static let abstract = "Print a device's state events as they arrive, until Ctrl-C."
    static let help = """
        usage: aibuds events --device NAME|MAC|udp://HOST:PORT [--json] [--count N]

        Connects and prints one line per state event the device pushes (battery, work state, ANC,
        EQ, volume, wear, TWS, media session, key presses, wake words, apps, teleprompter,
        navigation, ...), whoever caused it: another app, the wearer, the device itself. Runs
        until SIGINT or SIGTERM (exit 0), or N events.

        options:
          --device DEVICE  a device name or MAC address, or udp://HOST:PORT
          --json           one JSON object per line: {"event": KIND, ...fields}
          --count N        stop after N events
        """

    var device: String
    var json: Bool
    var count: Int?

    init(_ arguments: inout Arguments) throws {
        device = try arguments.required("--device")
        json = arguments.flag("--json")
        count = try arguments.number("--count")
    }

    func validate() throws {
        guard !device.isEmpty else { throw CommandFailure.usage("--device must not be empty") }
        if let count, count < 1 { throw CommandFailure.usage("--count must be at least 1") }
    }

    /// Hands each event to the printing loop.
    final class Listener: DeviceDelegate {
        let continuation: AsyncStream<DeviceStateEvent>.Continuation
        init(_ continuation: AsyncStream<DeviceStateEvent>.Continuation) { self.continuation = continuation }
        func device(_ device: any DeviceConvertible, didReceiveStateEvent event: DeviceStateEvent) {
            continuation.yield(event)
        }
        func device(_ device: any DeviceConvertible, didDisconnectWithError error: NSError?) { continuation.finish() }
    }

    func run() async throws -> ExitCode {
        DeviceCommandSupport.initializeSDK()
        let found = try await DeviceCommandSupport.find(device)
        let (events, continuation) = AsyncStream.makeStream(of: DeviceStateEvent.self)
        let listener = Listener(continuation)
        guard let connected = AIBudsSDK.makeStorableDeviceFromDiscovered(found) else {
            throw CommandFailure.failure("no plugin can handle \(device)")
        }
        connected.delegate = listener
        do { try await connected.connectAndWait(ConnectParams()) } catch {
            throw DeviceCommandSupport.failure(error, "cannot connect to \(device)")
        }
        Task {
            await Emulator.waitForTerminationSignal()
            continuation.finish()
        }
        if !json { CLI.say("listening to \(TerminalText.safe(connected.name)) (Ctrl-C to stop)") }
        var seen = 0
        for await event in events {
            let (kind, fields) = ControlFields.event(event)
            if json {
                var line = Fields()
                line.add("event", .text(kind))
                line.pairs += fields.pairs
                CLI.sayJSON(try line.json())
            } else {
                CLI.say("\(kind) \(fields.inline)")
            }
            seen += 1
            if let count, seen >= count { break }
        }
        withExtendedLifetime(listener) {}
        await connected.disconnectAndWait()
        return .ok
    }
}
