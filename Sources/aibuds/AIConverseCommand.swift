import AIBudsAIFoundation
import AIBudsAISDK
import AIBudsAudio
import AIBudsOpenAI
import AIBudsSync
import Foundation

/// `aibuds ai converse --device D --other-input FILE.wav`: a conversation translation between the
/// wearer of device D and another person.
struct AIConverseCommand: CLICommand {
    static let path = ["ai", "converse"]
    static let abstract = "Translate a conversation between the wearer and another person, both ways."
    static let help = """
        usage: aibuds ai converse --device D --other-input FILE.wav [--other-output OUT.wav]
                                  [--language LANG] [--other-language LANG] [options]

        Two people, two languages. The wearer speaks into device D's microphone; each turn
        (found by voice activity) is transcribed, translated into the other language and spoken
        to the other person (--other-output). The other person's speech (--other-input, played
        at the speed it was recorded) is transcribed, translated into the wearer's language and
        spoken on the device's speaker. Runs until Ctrl-C; each turn and translation is printed.

        The wearer's language is transcribed by the selected provider (offline: Moonshine,
        English); the other language by the multilingual Whisper server of
        AIBUDS_AI_MULTILINGUAL_TRANSCRIBE_URL (scripts/ai-servers.sh starts one) or
        --other-transcribe-url. Translation and speech: the selected provider.

        options:
          --device D               the wearer's device (microphone and speaker)
          --other-input FILE.wav   the other person's speech
          --other-output OUT.wav   where the wearer's turns are spoken, translated (written at
                                   the end); default: this machine's sound output
          --language LANG          the wearer's language (default en)
          --other-language LANG    the other person's language (default es)
          --other-transcribe-url U the OpenAI-compatible transcription server for it
          --json                   the events as JSON lines, each with its side (0 the wearer)
        \(AICommandSupport.providerHelp)
        """

    var device: String
    var otherInput: String
    var otherOutput: String?
    var language: String
    var otherLanguage: String
    var otherTranscribeURL: String?
    var provider: String?
    var json: Bool

    init(_ arguments: inout Arguments) throws {
        guard let device = try arguments.option("--device") else { throw CommandFailure.usage("--device D is required") }
        guard let otherInput = try arguments.option("--other-input") else { throw CommandFailure.usage("--other-input FILE.wav is required") }
        self.device = device
        self.otherInput = otherInput
        otherOutput = try arguments.option("--other-output")
        language = try arguments.option("--language") ?? "en"
        otherLanguage = try arguments.option("--other-language") ?? "es"
        otherTranscribeURL = try arguments.option("--other-transcribe-url")
            ?? ProcessInfo.processInfo.environment["AIBUDS_AI_MULTILINGUAL_TRANSCRIBE_URL"]
        provider = try AICommandSupport.providerOption(&arguments)
        json = arguments.flag("--json")
        try arguments.finish()
    }

    func run() async throws -> ExitCode {
        try AICommandSupport.select(provider)
        let otherSource = try AICommandSupport.source(input: otherInput, realTime: true)
        let transcriber = otherTranscribeURL.map {
            OpenAICompatibleProvider(configuration: OpenAICompatibleConfiguration(transcriptionBaseURL: $0))
        }
        if otherOutput == nil {
            do {
                try await runOnOwnThread(name: "aibuds-speaker-check") { _ in try AudioPlayer.checkServer() }
            } catch {
                throw CommandFailure.failure("the other person cannot hear this machine: \(error) (give --other-output OUT.wav)")
            }
        }
        let connection = try await AIDeviceConnection.open(device)
        let otherSink: any AIAudioSink = otherOutput.map { WAVFileAudioSink(url: URL(fileURLWithPath: $0)) } ?? LocalSpeakerSink()
        do {
            let conversation = try await AIBudsAISDK.startConversationTranslation(
                ConversationSide(source: connection.source, language: language, sink: connection.sink),
                ConversationSide(source: otherSource, language: otherLanguage, sink: otherSink, transcriber: transcriber))
            let interrupt = MediaInterrupt { conversation.stop() }
            defer { interrupt.remove() }
            let clock = ContinuousClock()
            let start = clock.now
            let names = ["wearer", "other"]
            for await (side, event) in conversation.events {
                if json {
                    var line = AICommandSupport.EventLine(event)
                    line.t = (clock.now - start) / .seconds(1)
                    try AICommandSupport.printJSONLine(SideLine(side: side, line: line))
                    continue
                }
                switch event {
                case .transcript(_, let transcript) where !transcript.text.isEmpty:
                    CLI.say("[\(names[side])] heard: \(transcript.text)")
                case .translatedSegment(_, _, let translation):
                    CLI.say("[\(names[side]) → \(names[1 - side])] \(translation)")
                case .failed(let error):
                    CLI.printError("\(names[side]): \(error.message)")
                default: break
                }
            }
            _ = try await conversation.result()
            await connection.close()
            return .ok
        } catch {
            await connection.close()
            throw AICommandSupport.failure(error, "the conversation translation failed")
        }
    }

    /// A JSON line: the side and the event's fields.
    private struct SideLine: Encodable {
        var side: Int
        var line: AICommandSupport.EventLine

        func encode(to encoder: any Encoder) throws {
            try line.encode(to: encoder)
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(side, forKey: .side)
        }

        private enum Key: String, CodingKey { case side }
    }
}

/// This machine's sound output (PulseAudio) as a session's sink: each piece plays to its end.
struct LocalSpeakerSink: AIAudioSink {
    func play(_ audio: PCMAudio) async throws {
        try await runOnOwnThread(name: "aibuds-speaker") { _ in try AudioPlayer.play(audio) }
    }

    func finish() async throws {}
}
