import AIBudsAIFoundation
import AIBudsFoundation
import AIBudsOfflineAI
import AIBudsVoiceAssistant
import Foundation

/// `aibuds assistant --device D`: the offline voice assistant on a device's microphone.
struct AssistantCommand: CLICommand {
    static let path = ["assistant"]
    static let abstract = "Listen for \"hey glasses\" and voice commands on a device, and carry them out."
    static let help = """
        usage: aibuds assistant --device D [--wake PHRASE] [--window S] [--recognizer R] [--json]

        Listens to device D's microphone until Ctrl-C. When an utterance starts with the wake
        phrase, the command said with it (or in the next utterance, within --window seconds) is
        carried out on the device: take a photo, record a video, stop recording, start an audio
        recording, volume up or down, set the volume to N, next or previous track, play, pause,
        stop navigation. Navigation to a place, translation and questions are printed for an app
        to act on. Commands run only while the device reports its voice assistant service
        authorized (`aibuds control --device D auth`); otherwise they are refused and nothing
        happens on the device.

        Each wake, command and result is printed; --json prints them as JSON lines (event, t
        in seconds since listening began, action and slots, detail or reason).

        options:
          --device D       the device (udp://HOST:PORT, a name, or bluez:ADDRESS)
          --wake PHRASE    the wake phrase (default "hey glasses")
          --window S       seconds after a lone wake phrase in which a command is taken (default 5)
          --recognizer R   automatic (Moonshine when installed, else PocketSphinx), moonshine or
                           pocketsphinx
          --json           JSON lines
        """

    var device: String
    var wake: WakePhrase
    var window: Double
    var recognizer: OfflineAIProvider.Recognizer
    var json: Bool

    init(_ arguments: inout Arguments) throws {
        guard let device = try arguments.option("--device") else { throw CommandFailure.usage("--device D is required") }
        self.device = device
        let phrase = try arguments.option("--wake") ?? "hey glasses"
        guard let wake = WakePhrase(phrase) else { throw CommandFailure.usage("--wake needs a phrase with words") }
        self.wake = wake
        let window = try arguments.option("--window") ?? "5"
        guard let seconds = Double(window), seconds >= 0, seconds.isFinite else {
            throw CommandFailure.usage("--window takes seconds, not \(window)")
        }
        self.window = seconds
        let name = try arguments.option("--recognizer") ?? "automatic"
        guard let recognizer = OfflineAIProvider.Recognizer.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else {
            throw CommandFailure.usage("--recognizer is automatic, moonshine or pocketsphinx, not '\(name)'")
        }
        self.recognizer = recognizer
        json = arguments.flag("--json")
        try arguments.finish()
    }

    func run() async throws -> ExitCode {
        let connection = try await AIDeviceConnection.open(device)
        let listener = VoiceCommandListener(
            configuration: VoiceCommandListener.Configuration(wakePhrase: wake, commandWindow: window),
            recognizer: OfflineAIProvider(recognizer: recognizer))
        let assistant = VoiceAssistant(device: connection.device, listener: listener)
        let task = Task {
            let clock = ContinuousClock()
            let start = clock.now
            for try await event in assistant.run() {
                try print(event, at: (clock.now - start) / .seconds(1))
            }
        }
        let interrupt = MediaInterrupt { task.cancel() }
        defer { interrupt.remove() }
        do {
            try await task.value
        } catch where task.isCancelled {
            // Ctrl-C: whatever the stop surfaced as, the wearer asked for it.
        } catch let error as AIBudsError {
            await connection.close()
            throw CommandFailure.failure("the assistant stopped: \(error.message)")
        } catch {
            await connection.close()
            throw AICommandSupport.failure(error, "the assistant stopped")
        }
        await connection.close()
        return .ok
    }

    /// One event as a line of text or JSON.
    private func print(_ event: VoiceAssistantEvent, at t: Double) throws {
        var line = EventLine(event: "", t: (t * 100).rounded() / 100)
        let text: String
        switch event {
        case .listening:
            line.event = "listening"
            text = "listening on \(device) (say \"\(wake.words.joined(separator: " "))\")"
        case .heard(let said, let at):
            line.event = "heard"; line.text = said; line.at = at
            text = String(format: "[%6.2f] heard: ", at) + said
        case .wake(let at):
            line.event = "wake"; line.at = at
            text = String(format: "[%6.2f] wake", at)
        case .command(let intent, let said):
            line.event = "command"; line.intent = intent; line.text = said
            text = "command: \(intent)"
        case .notUnderstood(let said):
            line.event = "notUnderstood"; line.text = said
            text = "not understood: \(said)"
        case .executed(let intent, let detail):
            line.event = "executed"; line.intent = intent; line.detail = detail
            text = "done: \(detail)"
        case .refused(let intent, let reason):
            line.event = "refused"; line.intent = intent; line.detail = reason
            text = "refused \(intent.action): \(reason)"
        case .failed(let intent, let message):
            line.event = "failed"; line.intent = intent; line.detail = message
            text = "failed \(intent.action): \(message)"
        case .forwarded(let intent):
            line.event = "forwarded"; line.intent = intent
            text = "for the app: \(intent)"
        }
        if json { try AICommandSupport.printJSONLine(line) } else { CLI.say(text) }
    }

    /// What `--json` prints for an event.
    private struct EventLine: Encodable {
        var event: String
        var t: Double
        var at: Double?
        var text: String?
        var intent: AIIntent?
        var detail: String?
    }
}
