import AIBudsAIFoundation
import AIBudsAISDK
import AIBudsOfflineAI
import AIBudsOpenAI
import Foundation

/// `aibuds bench intents`: how often each provider finds the right intent on a labelled set of
/// requests, and how long it takes.
struct BenchIntentsCommand: CLICommand {
    static let path = ["bench", "intents"]
    static let abstract = "Intent accuracy and latency of the offline grammar and the chat model on labelled requests."
    static let help = """
        usage: aibuds bench intents [--providers offline,openai] [--verbose] [--json]

        Asks each provider for the intent of each request of a labelled set (as people say them,
        not as the grammar writes them: some phrasings it does not know) and prints, per
        provider, the share whose action was right, whose action and slots were right, and the
        median and worst time per request. openai is the chat server of AIBUDS_AI_CHAT_URL or
        AIBUDS_AI_BASE_URL (scripts/ai-servers.sh starts llama.cpp's with SmolLM2 135M); it is
        skipped when none is set. --verbose prints each miss on standard error.
        """

    /// Requests and the intent each asks for.
    static let labelled: [(String, AIIntent)] = [
        ("Take a photo.", AIIntent(.takePhoto)),
        ("Can you take a picture of this?", AIIntent(.takePhoto)),
        ("Photograph the menu for me.", AIIntent(.takePhoto)),
        ("Snap a pic please", AIIntent(.takePhoto)),
        ("Start recording a video.", AIIntent(.startVideo)),
        ("Film this, quick!", AIIntent(.startVideo)),
        ("Begin a video recording now.", AIIntent(.startVideo)),
        ("Stop recording.", AIIntent(.stopRecording)),
        ("OK, end the video.", AIIntent(.stopRecording)),
        ("Record a voice memo.", AIIntent(.startAudioRecording)),
        ("Start an audio recording of this lecture.", AIIntent(.startAudioRecording)),
        ("Turn the volume up.", AIIntent(.volumeUp)),
        ("It's too quiet, louder please.", AIIntent(.volumeUp)),
        ("Turn it down.", AIIntent(.volumeDown)),
        ("Lower the volume a bit.", AIIntent(.volumeDown)),
        ("Set the volume to 60 percent.", AIIntent(.setVolume, level: 60)),
        ("Volume thirty.", AIIntent(.setVolume, level: 30)),
        ("Mute.", AIIntent(.mute)),
        ("Play some music.", AIIntent(.play)),
        ("Resume the song.", AIIntent(.play)),
        ("Pause.", AIIntent(.pause)),
        ("Pause the podcast.", AIIntent(.pause)),
        ("Skip this track.", AIIntent(.nextTrack)),
        ("Next song please.", AIIntent(.nextTrack)),
        ("Go back to the last song.", AIIntent(.previousTrack)),
        ("Previous track.", AIIntent(.previousTrack)),
        ("Navigate to the central library.", AIIntent(.navigate, place: "the central library")),
        ("Take me to Union Square.", AIIntent(.navigate, place: "union square")),
        ("How do I get to the nearest pharmacy?", AIIntent(.navigate, place: "the nearest pharmacy")),
        ("Directions to the airport.", AIIntent(.navigate, place: "the airport")),
        ("Stop the navigation.", AIIntent(.stopNavigation)),
        ("Cancel the route.", AIIntent(.stopNavigation)),
        ("Start translating into French.", AIIntent(.startTranslation, language: "french")),
        ("Translate what they say to German.", AIIntent(.startTranslation, language: "german")),
        ("Stop translating.", AIIntent(.stopTranslation)),
        ("Translate where is the station into Spanish.", AIIntent(.translateText, language: "spanish", text: "where is the station")),
        ("How do you say thank you very much in Japanese?", AIIntent(.translateText, language: "japanese", text: "thank you very much")),
        ("What's the weather like tomorrow?", AIIntent(.ask, text: "What's the weather like tomorrow?")),
        ("Who painted the Mona Lisa?", AIIntent(.ask, text: "Who painted the Mona Lisa?")),
        ("How tall is the Eiffel Tower?", AIIntent(.ask, text: "How tall is the Eiffel Tower?")),
        ("I think the bus is late again.", AIIntent(.none)),
        ("We had a great time at the beach.", AIIntent(.none)),
        ("My sister lives in Madrid.", AIIntent(.none)),
        ("That was a long meeting.", AIIntent(.none)),
    ]

    var providers: [String]
    var verbose: Bool
    var json: Bool

    init(_ arguments: inout Arguments) throws {
        providers = (try arguments.option("--providers") ?? "offline,openai").split(separator: ",").map(String.init)
        for name in providers where !["offline", "openai"].contains(name) {
            throw CommandFailure.usage("unknown provider '\(name)' (offline, openai)")
        }
        verbose = arguments.flag("--verbose")
        json = arguments.flag("--json")
        try arguments.finish()
    }

    /// One provider's figures.
    struct Row: Encodable {
        var provider: String
        var requests: Int
        var actionRight: Int
        var allRight: Int
        var failed: Int
        var medianSeconds: Double
        var worstSeconds: Double
    }

    func run() async throws -> ExitCode {
        var rows: [Row] = []
        for name in providers {
            let provider: any AIConnectSDK
            if name == "openai" {
                let configuration = OpenAICompatibleConfiguration.fromEnvironment()
                guard configuration.chatBaseURL != nil else {
                    CLI.printError("openai: no chat server configured, skipped")
                    continue
                }
                provider = OpenAICompatibleProvider(configuration: configuration)
            } else {
                provider = OfflineAIProvider()
            }
            var row = Row(provider: name, requests: Self.labelled.count, actionRight: 0, allRight: 0, failed: 0, medianSeconds: 0, worstSeconds: 0)
            var times: [Double] = []
            for (said, expected) in Self.labelled {
                let clock = ContinuousClock()
                let start = clock.now
                do {
                    let intent = try await provider.recognizeIntent(said, language: "en")
                    times.append((clock.now - start) / .seconds(1))
                    if intent.action == expected.action { row.actionRight += 1 }
                    if Self.sameSlots(intent, expected) { row.allRight += 1 }
                    if verbose, !Self.sameSlots(intent, expected) { CLI.printError("\(name): '\(said)' → \(intent), not \(expected)") }
                } catch {
                    times.append((clock.now - start) / .seconds(1))
                    row.failed += 1
                    if verbose { CLI.printError("\(name): '\(said)' failed: \(AIError.from(error).message)") }
                }
            }
            times.sort()
            row.medianSeconds = times[times.count / 2]
            row.worstSeconds = times.last ?? 0
            rows.append(row)
        }
        if json {
            try DeviceCommandSupport.printJSON(rows)
        } else {
            CLI.say("provider  requests  action right  action and slots  failed  median     worst")
            for row in rows {
                let name = row.provider.padding(toLength: 9, withPad: " ", startingAt: 0)
                CLI.say(name + String(format: " %8d  %5.1f%%        %5.1f%%            %6d  %7.3f s  %7.3f s", row.requests,
                                      Double(row.actionRight) / Double(row.requests) * 100, Double(row.allRight) / Double(row.requests) * 100,
                                      row.failed, row.medianSeconds, row.worstSeconds))
            }
        }
        return .ok
    }

    /// The same action and the same slots, compared as words (case and punctuation aside); the
    /// text of a question is not compared.
    static func sameSlots(_ a: AIIntent, _ b: AIIntent) -> Bool {
        func words(_ text: String?) -> [String] { AIIntentGrammar.words(of: text ?? "") }
        guard a.action == b.action, a.level == b.level, words(a.place) == words(b.place), words(a.language) == words(b.language) else {
            return false
        }
        return a.action == .ask || words(a.text) == words(b.text)
    }
}
