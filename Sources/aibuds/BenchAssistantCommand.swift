import AIBuds
import AIBudsAIFoundation
import AIBudsAISDK
import AIBudsAudio
import AIBudsEmulator
import AIBudsNet
import AIBudsOfflineAI
import AIBudsVoiceAssistant
import Foundation

/// `aibuds bench assistant`: how many spoken commands the voice assistant recognizes and carries
/// out on emulated glasses, and how often meeting speech with no wake phrase wakes it.
struct BenchAssistantCommand: CLICommand {
    static let path = ["bench", "assistant"]
    static let abstract = "Voice assistant: commands recognized and executed, false wakes per hour."
    static let help = """
        usage: aibuds bench assistant [--meeting-minutes M] [--noise DB] [--verbose] [--json]

        Says each command after "hey glasses" with three espeak-ng voices at two speeds (clean,
        and with white noise at --noise dB SNR, default 20), as one stream with pauses between
        them, through the offline voice assistant (Moonshine, or PocketSphinx when Moonshine is
        not installed); each recognized command is carried out on emulated glasses started in
        this process, with the service authorized. Then plays M minutes (default 10) of meeting
        speech that holds no wake phrase and counts the wakes. Prints the share of commands whose
        wake was heard, whose intent was right, and that the glasses carried out; the false wakes
        per hour; the real-time factor and the peak memory. --verbose prints each utterance heard
        and each command on standard error.
        """

    /// The commands said, with the intent each must give, in an order the glasses can carry out.
    static let commands: [(said: String, intent: AIIntent)] = [
        ("take a picture", AIIntent(.takePhoto)),
        ("record a video", AIIntent(.startVideo)),
        ("stop recording", AIIntent(.stopRecording)),
        ("start an audio recording", AIIntent(.startAudioRecording)),
        ("stop the recording", AIIntent(.stopRecording)),
        ("snap a photo", AIIntent(.takePhoto)),
        ("turn the volume up", AIIntent(.volumeUp)),
        ("next song", AIIntent(.nextTrack)),
        ("pause the music", AIIntent(.pause)),
        ("navigate to the train station", AIIntent(.navigate, place: "the train station")),
        ("start translating into Spanish", AIIntent(.startTranslation, language: "spanish")),
        ("stop translation", AIIntent(.stopTranslation)),
    ]

    /// Meeting talk with no wake phrase (some with "glasses" and "hey" in it).
    static let meeting = [
        "Good morning everyone, let's start with the numbers from last week.",
        "The new glasses shipped on Tuesday and the first reviews look good.",
        "Hey, did anyone hear back from the supplier about the lenses?",
        "I think we should move the launch to the second half of March.",
        "Can you take a look at the budget before Friday?",
        "They said the photos from the trade fair are on the shared drive.",
        "Our team needs two more weeks to finish the battery tests.",
        "Please send me the slides after the call.",
        "The glasses case is too large for most pockets, according to the survey.",
        "Let's record the decision and move on to the next topic.",
        "Hey team, quick reminder that the office is closed on Monday.",
        "We could stop the old production line by the end of the year.",
    ]

    var meetingMinutes: Double
    var noise: Double
    var json: Bool
    var verbose: Bool

    init(_ arguments: inout Arguments) throws {
        meetingMinutes = try arguments.number("--meeting-minutes") ?? 10
        noise = try arguments.number("--noise") ?? 20
        guard meetingMinutes >= 0, meetingMinutes <= 120 else { throw CommandFailure.usage("--meeting-minutes must be 0 to 120") }
        json = arguments.flag("--json")
        verbose = arguments.flag("--verbose")
        try arguments.finish()
    }

    /// What the benchmark prints.
    struct Report: Encodable {
        var recognizer: String
        var commandsSaid: Int
        var wakesHeard: Int
        var intentsRight: Int
        var executable: Int
        var executed: Int
        var meetingMinutes: Double
        var falseWakes: Int
        var falseWakesPerHour: Double
        var realTimeFactor: Double
        var peakResidentMB: Double
    }

    func run() async throws -> ExitCode {
        let provider = OfflineAIProvider()
        let listener = VoiceCommandListener(recognizer: provider)
        let glasses = try await emulatedGlasses()
        defer { glasses.emulator.stop() }
        let assistant = VoiceAssistant(device: glasses.connection.device, listener: listener)
        // The bench is its own voice assistant service: its bridge grants every device.
        AIBudsSDK.setOnDeviceVoiceAssistantPlugin(BenchAuthorization())
        defer { AIBudsSDK.setOnDeviceVoiceAssistantPlugin(nil) }
        guard try await assistant.authorize() == .authorized else { throw CommandFailure.failure("the emulated glasses did not authorize") }

        // The commands: one stream, each "hey glasses, ..." followed by 1.5 s of quiet.
        var stream: [Int16] = []
        var spans: [(end: Double, intent: AIIntent)] = []
        var seed: UInt64 = 7
        for noisy in [false, true] {
            for voice in SpeechClips.voices {
                for speed in SpeechClips.speeds {
                    for command in Self.commands {
                        var clip = try await SpeechClips.speak("Hey glasses, \(command.said).", voice: voice, speed: speed)
                        seed += 1
                        if noisy { clip = SpeechClips.mixNoise(clip, snr: noise, seed: seed) }
                        stream += clip.samples + [Int16](repeating: 0, count: 24_000)
                        spans.append((Double(stream.count) / 16_000, command.intent))
                    }
                }
            }
        }
        CLI.printError(String(format: "%d commands, %.0f s of speech", spans.count, Double(stream.count) / 16_000))
        let clock = ContinuousClock()
        var busy = Duration.zero
        var start = clock.now
        var wakes = Set<Int>()
        var right = 0
        var executable = 0
        var executed = 0
        // The clip of the utterance last heard: its command comes right after it (a wake may come
        // earlier, from a partial of a later utterance, when the audio outruns the recognizer).
        var heardClip: Int?
        for try await event in listener.events(from: PCMAudioSource(PCMAudio(sampleRate: 16_000, channels: 1, samples: stream))) {
            if verbose { CLI.printError("\(event)") }
            switch event {
            case .wake(let at):
                wakes.insert(spans.firstIndex { at < $0.end } ?? spans.count - 1)
            case .heard(_, let at):
                heardClip = spans.firstIndex { at <= $0.end } ?? spans.count - 1
            case .command(let intent, _):
                guard let clip = heardClip else { break }
                if intent == spans[clip].intent { right += 1 }
                busy += clock.now - start
                let outcome = await assistant.execute(intent)
                start = clock.now
                if case .forwarded = outcome { break }
                if case .refused = outcome, !Self.glassesCan(intent.action) { break }
                executable += 1
                if case .executed = outcome { executed += 1 }
            default: break
            }
        }
        busy += clock.now - start
        let commandAudio = Double(stream.count) / 16_000

        // Meeting speech: no wake phrase anywhere.
        var meeting: [Int16] = []
        var index = 0
        while Double(meeting.count) / 16_000 < meetingMinutes * 60 {
            let voice = SpeechClips.voices[index % SpeechClips.voices.count]
            let speed = SpeechClips.speeds[(index / SpeechClips.voices.count) % SpeechClips.speeds.count]
            meeting += try await SpeechClips.speak(Self.meeting[index % Self.meeting.count], voice: voice, speed: speed).samples
            meeting += [Int16](repeating: 0, count: 12_000)
            index += 1
        }
        var falseWakes = 0
        let meetingStart = clock.now
        if !meeting.isEmpty {
            for try await event in listener.events(from: PCMAudioSource(PCMAudio(sampleRate: 16_000, channels: 1, samples: meeting))) {
                if verbose { CLI.printError("\(event)") }
                if case .wake = event { falseWakes += 1 }
            }
        }
        busy += clock.now - meetingStart
        let meetingSeconds = Double(meeting.count) / 16_000
        let report = Report(
            recognizer: "\(provider.activeRecognizer)", commandsSaid: spans.count, wakesHeard: wakes.count, intentsRight: right,
            executable: executable, executed: executed, meetingMinutes: meetingSeconds / 60, falseWakes: falseWakes,
            falseWakesPerHour: meetingSeconds > 0 ? Double(falseWakes) / meetingSeconds * 3600 : 0,
            realTimeFactor: busy / .seconds(1) / (commandAudio + meetingSeconds), peakResidentMB: SpeechClips.peakMemoryMiB)
        if json {
            try DeviceCommandSupport.printJSON(report)
        } else {
            CLI.say("recognizer          \(report.recognizer)")
            CLI.say(String(format: "wake heard          %d of %d (%.1f%%)", report.wakesHeard, report.commandsSaid, percent(report.wakesHeard, report.commandsSaid)))
            CLI.say(String(format: "intent right        %d of %d (%.1f%%)", report.intentsRight, report.commandsSaid, percent(report.intentsRight, report.commandsSaid)))
            CLI.say(String(format: "executed on glasses %d of %d the glasses can do", report.executed, report.executable))
            CLI.say(String(format: "false wakes         %d in %.1f min of meeting speech (%.1f an hour)", falseWakes, report.meetingMinutes, report.falseWakesPerHour))
            CLI.say(String(format: "real-time factor    %.2f", report.realTimeFactor))
            CLI.say(String(format: "peak memory         %.0f MiB", report.peakResidentMB))
        }
        await glasses.connection.close()
        return .ok
    }

    private func percent(_ part: Int, _ whole: Int) -> Double { whole > 0 ? Double(part) / Double(whole) * 100 : 0 }

    /// Whether emulated glasses have the API for `action` (no music or volume control).
    static func glassesCan(_ action: AIIntentAction) -> Bool {
        [.takePhoto, .startVideo, .stopRecording, .startAudioRecording, .stopNavigation].contains(action)
    }

    /// Emulated glasses in this process on a free loopback port, connected.
    private func emulatedGlasses() async throws -> (emulator: Emulator, connection: AIDeviceConnection) {
        var configuration = EmulatorConfiguration()
        configuration.profile = .glasses
        configuration.name = "Bench Glasses"
        configuration.listen = SocketAddress(host: "127.0.0.1", port: 0)
        configuration.announce = false
        let emulator = try Emulator(configuration: configuration)
        let address = try emulator.start()
        do {
            return (emulator, try await AIDeviceConnection.open("udp://\(address)"))
        } catch {
            emulator.stop()
            throw error
        }
    }
}

/// The benchmark's voice assistant authorization: a token for any device.
private final class BenchAuthorization: OnDeviceVoiceAssistantBridgePlugin {
    func authorizeVoiceAssistant(device: any DeviceConvertible) async throws -> Data { Data("bench".utf8) }
}
