import AIBudsAIFoundation
import AIBudsAISDK
import AIBudsAudio
import Foundation

/// `aibuds ai transcribe FILE.wav`: prints the transcript of a WAV file; with `--stream` or
/// `--device D`, transcribes while the speech plays (the SDK's streaming ASR), partials first.
struct AITranscribeCommand: CLICommand {
    static let path = ["ai", "transcribe"]
    static let abstract = "Transcribe speech: a WAV file, or streamed from a file or a device's microphone."
    static let help = """
        usage: aibuds ai transcribe FILE.wav [--language LANG] [--provider P] [--json]
               aibuds ai transcribe (--stream FILE.wav | --device D) [--partial-every S] [options]

        Prints what is said in the file (16-bit PCM WAV, any rate, mono or stereo) and, with
        --json, the seconds of audio and the real-time factor (processing time / audio time).

        With --stream the file plays at the speed it was recorded, as a microphone would, and
        with --device the device's microphone is heard until Ctrl-C: while someone speaks, what
        they said so far is printed (`… [N] text`), then each utterance's final transcript with
        its start and end. --json prints the session's events as JSON lines (partialTranscript,
        transcript, ...), each with `t`, the seconds since the session started.

        options:
          --stream         transcribe FILE.wav while it plays in real time
          --device D       transcribe device D's microphone
          --partial-every S  seconds of speech between partial transcripts (default 0.5)
          --language LANG  the spoken language (default en)
        \(AICommandSupport.providerHelp)
        """

    var file: String?
    var device: String?
    var stream: Bool
    var partialInterval: Double
    var options: AICommandSupport.CommonOptions

    init(_ arguments: inout Arguments) throws {
        options = try AICommandSupport.CommonOptions(&arguments)
        stream = arguments.flag("--stream")
        device = try arguments.option("--device")
        let interval = try arguments.option("--partial-every") ?? "0.5"
        guard let seconds = Double(interval), seconds > 0, seconds.isFinite else {
            throw CommandFailure.usage("--partial-every takes a positive number of seconds, not \(interval)")
        }
        partialInterval = seconds
        let files = try arguments.positionals()
        if device != nil {
            guard files.isEmpty, !stream else { throw CommandFailure.usage("--device D takes no file and no --stream") }
        } else {
            guard files.count == 1 else { throw CommandFailure.usage("give one WAV file (or --device D)") }
            file = files[0]
        }
    }

    /// What `--json` prints.
    struct Report: Encodable {
        var text: String
        var language: String?
        var audioSeconds: Double
        var processingSeconds: Double
        var realTimeFactor: Double
    }

    func run() async throws -> ExitCode {
        if stream || device != nil { return try await runStreaming() }
        let audio: PCMAudio
        do { audio = try WAVFile.read(from: URL(fileURLWithPath: file ?? "")) } catch { throw CommandFailure.usage("\(error)") }
        try AICommandSupport.select(options.provider)
        do {
            let clock = ContinuousClock()
            let start = clock.now
            let transcript = try await AIBudsAISDK.recognizeVoice(audio, language: options.language)
            let seconds = (clock.now - start) / .seconds(1)
            if options.json {
                try AICommandSupport.printJSONLine(Report(
                    text: transcript.text, language: transcript.language, audioSeconds: audio.duration,
                    processingSeconds: seconds, realTimeFactor: audio.duration > 0 ? seconds / audio.duration : 0))
            } else {
                CLI.say(transcript.text)
            }
            return .ok
        } catch {
            throw AICommandSupport.failure(error, "transcription failed")
        }
    }

    /// The streaming form: a streaming ASR session on the file (in real time) or the microphone.
    private func runStreaming() async throws -> ExitCode {
        try AICommandSupport.select(options.provider)
        var connection: AIDeviceConnection?
        if let device { connection = try await AIDeviceConnection.open(device) }
        let source: any AIAudioSource = try connection?.source ?? AICommandSupport.source(input: file, realTime: true)
        do {
            let session = try await AIBudsAISDK.startStreamingASR(
                parameters: AISessionParameters(language: options.language, partialResultInterval: partialInterval), source: source)
            let interrupt = MediaInterrupt { session.stop() }
            defer { interrupt.remove() }
            _ = try await AICommandSupport.follow(session, json: options.json)
            await connection?.close()
            return .ok
        } catch {
            await connection?.close()
            throw AICommandSupport.failure(error, "transcription failed")
        }
    }
}
