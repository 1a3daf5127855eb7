import AIBudsAIFoundation
import AIBudsAISDK
import AIBudsAudio
import Foundation

/// The options the three session commands share: where the audio comes from, the provider, output.
struct AISessionOptions {
    var device: String?
    var input: String?
    var realTime: Bool
    var language: String
    var provider: String?
    var json: Bool
    var records: AISessionRecords

    static let help = """
          --device D       take the audio from device D's microphone (and speak on its
                           speaker); runs until the device ends its AI session or Ctrl-C
          --input FILE     take the audio from a WAV file instead (16-bit PCM)
          --real-time      play --input at the speed it was recorded, as a microphone would
          --language LANG  the spoken language (default en)
        \(AISessionRecords.help)
        \(AICommandSupport.providerHelp)
        """

    init(_ arguments: inout Arguments) throws {
        records = try AISessionRecords(&arguments)
        device = try arguments.option("--device")
        input = try arguments.option("--input")
        realTime = arguments.flag("--real-time")
        language = try arguments.option("--language") ?? "en"
        provider = try AICommandSupport.providerOption(&arguments)
        json = arguments.flag("--json")
    }

    func validate() throws {
        guard (device == nil) != (input == nil) else { throw CommandFailure.usage("give --device D or --input FILE.wav") }
    }

    /// Selects the provider and makes the source: the WAV file, or the connected device's
    /// microphone (the connection is returned so the command can use its speaker and close it).
    func prepare() async throws -> (source: any AIAudioSource, device: AIDeviceConnection?) {
        try AICommandSupport.select(provider)
        records.start()
        if let device {
            let connection = try await AIDeviceConnection.open(device)
            return (connection.source, connection)
        }
        return (try AICommandSupport.source(input: input, realTime: realTime), nil)
    }

    /// Runs `session` to its end, printing its events; Ctrl-C stops listening (what was heard is
    /// still processed), and the device, if any, is disconnected afterwards.
    func follow(_ session: AISession, device: AIDeviceConnection?) async throws -> AISessionResult {
        let interrupt = MediaInterrupt { session.stop() }
        defer { interrupt.remove() }
        do {
            let result = try await AICommandSupport.follow(session, json: json)
            await device?.close()
            return result
        } catch {
            await device?.close()
            throw error
        }
    }
}

/// `aibuds ai chat`: talk to the assistant.
struct AIChatCommand: CLICommand {
    static let path = ["ai", "chat"]
    static let abstract = "Talk to the AI assistant (a device's microphone or a WAV file)."
    static let help = """
        usage: aibuds ai chat (--device D | --input FILE.wav) [--reply-to OUT.wav] [options]

        Each utterance is transcribed, answered by the chat model (printed as it streams) and
        spoken sentence by sentence; with --input the spoken replies go to --reply-to.

        options:
          --reply-to OUT   write the spoken replies to this WAV file
        \(AISessionOptions.help)
        """

    var options: AISessionOptions
    var replyTo: String?

    init(_ arguments: inout Arguments) throws {
        replyTo = try arguments.option("--reply-to")
        options = try AISessionOptions(&arguments)
        try arguments.finish()
    }

    func validate() throws { try options.validate() }

    func run() async throws -> ExitCode {
        let (source, device) = try await options.prepare()
        let sink: (any AIAudioSink)? = replyTo.map { WAVFileAudioSink(url: URL(fileURLWithPath: $0)) } ?? device?.sink
        do {
            let session = try await AIBudsAISDK.startAIChat(
                parameters: AISessionParameters(language: options.language), source: source, sink: sink)
            _ = try await options.follow(session, device: device)
            return .ok
        } catch {
            throw AICommandSupport.failure(error, "chat failed")
        }
    }
}

/// `aibuds ai record --to DIR`: an AI recording with transcript and summary.
struct AIRecordCommand: CLICommand {
    static let path = ["ai", "record"]
    static let abstract = "Record with transcript and summary (a device's microphone or a WAV file)."
    static let help = """
        usage: aibuds ai record (--device D | --input FILE.wav) --to DIR [options]

        Records until the input ends (or Ctrl-C), transcribing each utterance, then summarizes;
        writes DIR/recording.wav (16 kHz mono), DIR/transcript.txt (one utterance a line, with
        its start and end in seconds) and DIR/summary.txt.

        options:
          --to DIR         the folder to write into (created if missing)
        \(AISessionOptions.help)
        """

    var options: AISessionOptions
    var directory: String

    init(_ arguments: inout Arguments) throws {
        directory = try arguments.required("--to", "DIR")
        options = try AISessionOptions(&arguments)
        try arguments.finish()
    }

    func validate() throws { try options.validate() }

    func run() async throws -> ExitCode {
        let (source, device) = try await options.prepare()
        let folder = URL(fileURLWithPath: directory)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure.failure("cannot create \(directory): \(error.localizedDescription)")
        }
        let result: AISessionResult
        do {
            let session = try await AIBudsAISDK.startAIAudioRecording(
                parameters: AISessionParameters(language: options.language), source: source)
            // Ctrl-C stops listening; what was heard is still transcribed, summarized and written.
            result = try await options.follow(session, device: device)
        } catch {
            throw AICommandSupport.failure(error, "recording failed")
        }
        do {
            if let audio = result.recordedAudio { try WAVFile.write(audio, to: folder.appendingPathComponent("recording.wav")) }
            let lines = zip(result.utterances, result.transcripts).map { span, transcript in
                String(format: "%.2f\t%.2f\t", span.start, span.end) + transcript.text
            }
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: folder.appendingPathComponent("transcript.txt"))
            try Data(((result.summary ?? "") + "\n").utf8).write(to: folder.appendingPathComponent("summary.txt"))
        } catch {
            throw CommandFailure.failure("cannot write into \(directory): \(error)")
        }
        if !options.json {
            CLI.say(String(format: "wrote recording.wav (%.1f s), transcript.txt (%d utterances), summary.txt to %@",
                           result.inputDuration, result.transcripts.count, directory))
        }
        return .ok
    }
}

/// `aibuds ai interpret --from L --to L`: simultaneous interpretation.
struct AIInterpretCommand: CLICommand {
    static let path = ["ai", "interpret"]
    static let abstract = "Interpret speech into another language (a device's microphone or a WAV file)."
    static let help = """
        usage: aibuds ai interpret (--device D | --input FILE.wav) --from LANG --to LANG [--speak-to OUT.wav] [options]

        Each utterance is transcribed, translated (printed) and spoken in the target language;
        with --input the translated speech goes to --speak-to.

        options:
          --from LANG      the spoken language (default en)
          --to LANG        the language to interpret into (required)
          --speak-to OUT   write the translated speech to this WAV file
        \(AISessionOptions.help)
        """

    var options: AISessionOptions
    var target: String
    var speakTo: String?

    init(_ arguments: inout Arguments) throws {
        let from = try arguments.option("--from")
        target = try arguments.required("--to", "LANG")
        speakTo = try arguments.option("--speak-to")
        options = try AISessionOptions(&arguments)
        if let from { options.language = from }
        try arguments.finish()
    }

    func validate() throws { try options.validate() }

    func run() async throws -> ExitCode {
        let (source, device) = try await options.prepare()
        let sink: (any AIAudioSink)? = speakTo.map { WAVFileAudioSink(url: URL(fileURLWithPath: $0)) } ?? device?.sink
        do {
            let session = try await AIBudsAISDK.startSimultaneousInterpretation(
                parameters: AISessionParameters(language: options.language, targetLanguage: target), source: source, sink: sink)
            _ = try await options.follow(session, device: device)
            return .ok
        } catch {
            throw AICommandSupport.failure(error, "interpretation failed")
        }
    }
}
