import AIBudsAIFoundation
import AIBudsAISDK
import AIBudsAudio
import AIBudsOfflineAI
import AIBudsOpenAI
import Foundation

/// Shared parts of the `aibuds ai` commands: the provider option, audio sources, event output.
enum AICommandSupport {
    /// The help text of the options every `ai` command takes.
    static let providerHelp = """
          --provider P     openai (an OpenAI-compatible server: AIBUDS_AI_BASE_URL, or
                           AIBUDS_AI_CHAT_URL / AIBUDS_AI_TRANSCRIBE_URL / AIBUDS_AI_SPEECH_URL,
                           AIBUDS_AI_CHAT_MODEL, OPENAI_API_KEY; scripts/ai-servers.sh starts local
                           ones) or offline (espeak-ng, Apertium, PocketSphinx; no chat).
                           Default: openai when one of those URLs is set, else offline
          --json           print JSON instead of text
        """

    /// Reads `--provider` (validated later by `select`).
    static func providerOption(_ arguments: inout Arguments) throws -> String? {
        try arguments.option("--provider")
    }

    /// The options most `aibuds ai` commands share: the language spoken or written (`--language`,
    /// default en), the provider (`--provider`) and `--json`.
    struct CommonOptions {
        var language: String
        var provider: String?
        var json: Bool

        init(_ arguments: inout Arguments) throws {
            language = try arguments.option("--language") ?? "en"
            provider = try AICommandSupport.providerOption(&arguments)
            json = arguments.flag("--json")
        }
    }

    /// Loads both providers and selects `name` (or the default).
    static func select(_ name: String?) throws {
        let environment = ProcessInfo.processInfo.environment
        let openAI = OpenAICompatibleConfiguration.fromEnvironment(environment)
        let configured = openAI.chatBaseURL != nil || openAI.transcriptionBaseURL != nil || openAI.speechBaseURL != nil
        let chosen = name ?? (configured ? "openai" : "offline")
        guard ["openai", "offline"].contains(chosen) else {
            throw CommandFailure.usage("--provider is openai or offline, not '\(chosen)'")
        }
        if chosen == "openai" && !configured {
            throw CommandFailure.usage("--provider openai needs AIBUDS_AI_BASE_URL (or the per-service URLs) set")
        }
        do {
            try AIBudsAISDK.initialize(aiSDKs: [OpenAICompatibleProvider(configuration: openAI), OfflineAIProvider()])
        } catch {
            throw CommandFailure.failure("\(error)")
        }
        AIBudsAISDK.setAIProvider(named: chosen)
    }

    /// An AI error as the command's failure: bad parameters are usage errors (64), an unreachable
    /// server is "unavailable" (69), the rest exit 1.
    static func failure(_ error: any Error, _ what: String) -> CommandFailure {
        if let failure = error as? CommandFailure { return failure }
        let ai = AIError.from(error)
        switch ai.code {
        case .invalidParameters, .capabilityUnsupported, .noProviderSelected, .providerUnavailable:
            return .usage("\(what): \(ai.message)")
        case .serverUnreachable: return .unavailable("\(what): \(ai.message)")
        default: return .failure("\(what): \(ai.message)")
        }
    }

    /// Writes `value` as one line of JSON.
    static func printJSONLine<Value: Encodable>(_ value: Value) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        CLI.sayJSON(try encoder.encode(value))
    }

    /// The WAV file source of a session command (`--input FILE.wav`, played at real time with
    /// `--real-time`).
    static func source(input: String?, realTime: Bool) throws -> any AIAudioSource {
        guard let input else { throw CommandFailure.usage("--input FILE.wav or --device D is required") }
        guard FileManager.default.fileExists(atPath: input) else { throw CommandFailure.usage("\(input): no such file") }
        return WAVFileAudioSource(url: URL(fileURLWithPath: input), realTime: realTime)
    }

    /// Prints a session's events as they arrive (JSON lines with `json`), then returns its result.
    static func follow(_ session: AISession, json: Bool) async throws -> AISessionResult {
        var replying = false
        let clock = ContinuousClock()
        let start = clock.now
        for await event in session.events {
            if json {
                var line = EventLine(event)
                line.t = (clock.now - start) / .seconds(1)
                try printJSONLine(line)
                continue
            }
            switch event {
            case .partialTranscript(let index, let text): CLI.say("  … [\(index)] \(text)")
            case .transcript(let span, let transcript):
                CLI.say(String(format: "[%6.2f–%6.2f] ", span.start, span.end) + "heard: \(transcript.text)")
            case .replyToken(_, let text):
                if !replying { FileHandle.standardOutput.write(Data("assistant: ".utf8)) }
                replying = true
                FileHandle.standardOutput.write(Data(text.utf8))
            case .reply:
                if replying { CLI.say("") }
                replying = false
            case .translatedSegment(_, _, let translation): CLI.say("translation: \(translation)")
            case .summary(let summary): CLI.say("summary: \(summary)")
            case .failed(let error): CLI.printError("session failed: \(error.message)")
            default: break
            }
        }
        return try await session.result()
    }

    /// A session event as a JSON line; `t` is seconds since the session started (with a
    /// `--real-time` input, the same clock as the audio's `start` and `end`).
    struct EventLine: Encodable {
        var event: String
        var t: Double?
        var utterance: Int?
        var start: Double?
        var end: Double?
        var text: String?
        var source: String?
        var error: String?
        var code: Int?

        init(_ event: AISessionEvent) {
            switch event {
            case .started: self.event = "started"
            case .speechStarted(let at): self.event = "speechStarted"; start = at
            case .speechEnded(let span): self.event = "speechEnded"; utterance = span.index; start = span.start; end = span.end
            case .transcript(let span, let transcript):
                self.event = "transcript"; utterance = span.index; start = span.start; end = span.end; text = transcript.text
            case .partialTranscript(let index, let partial): self.event = "partialTranscript"; utterance = index; text = partial
            case .replyToken(let index, let token): self.event = "replyToken"; utterance = index; text = token
            case .reply(let index, let reply): self.event = "reply"; utterance = index; text = reply
            case .translatedSegment(let index, let original, let translation):
                self.event = "translatedSegment"; utterance = index; source = original; text = translation
            case .speaking(let index): self.event = "speaking"; utterance = index
            case .summary(let summary): self.event = "summary"; text = summary
            case .finished: self.event = "finished"
            case .failed(let failure): self.event = "failed"; error = failure.message; code = failure.code.rawValue
            case .canceled: self.event = "canceled"
            }
        }
    }
}
