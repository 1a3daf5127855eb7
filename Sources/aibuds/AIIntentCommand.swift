import AIBudsAIFoundation
import AIBudsAISDK
import Foundation

/// `aibuds ai intent TEXT`: what a spoken request asks the glasses to do.
struct AIIntentCommand: CLICommand {
    static let path = ["ai", "intent"]
    static let abstract = "Find the intent of a request (take a photo, navigate to X, ...) with an AI provider."
    static let help = """
        usage: aibuds ai intent TEXT... [--language LANG] [--provider P] [--json]

        Prints the action the words ask for and its slots (`navigate place=the station`), or
        `none`. The offline provider finds it with its grammar of command phrasings; the
        openai provider asks the chat model, its answer constrained to the intent's JSON schema.

        options:
          --language LANG  the text's language (default en)
        \(AICommandSupport.providerHelp)
        """

    var text: String
    var options: AICommandSupport.CommonOptions

    init(_ arguments: inout Arguments) throws {
        options = try AICommandSupport.CommonOptions(&arguments)
        text = try arguments.positionals().joined(separator: " ")
    }

    func validate() throws {
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { throw CommandFailure.usage("no text to read an intent from") }
    }

    func run() async throws -> ExitCode {
        try AICommandSupport.select(options.provider)
        do {
            let intent = try await AIBudsAISDK.recognizeIntent(text, language: options.language)
            if options.json { try AICommandSupport.printJSONLine(intent) } else { CLI.say("\(intent)") }
            return .ok
        } catch {
            throw AICommandSupport.failure(error, "intent recognition failed")
        }
    }
}
