import AIBudsAIFoundation
import AIBudsAISDK
import AIBudsAudio
import Foundation

/// `aibuds ai translate TEXT --from L --to L`: translates text with the selected provider.
struct AITranslateCommand: CLICommand {
    static let path = ["ai", "translate"]
    static let abstract = "Translate text with an AI provider."
    static let help = """
        usage: aibuds ai translate TEXT... --from LANG --to LANG [--provider P] [--json]

        Translates the text (the words after the options, joined) from one language to another
        (BCP 47 codes: en, es, fr, ...). The offline provider needs Apertium's pair installed.

        options:
          --from LANG      the text's language (default en)
          --to LANG        the language to translate into (required)
        \(AICommandSupport.providerHelp)
        """

    var text: String
    var from: String
    var to: String
    var provider: String?
    var json: Bool

    init(_ arguments: inout Arguments) throws {
        from = try arguments.option("--from") ?? "en"
        to = try arguments.required("--to")
        provider = try AICommandSupport.providerOption(&arguments)
        json = arguments.flag("--json")
        text = try arguments.positionals().joined(separator: " ")
    }

    func validate() throws {
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { throw CommandFailure.usage("no text to translate") }
    }

    func run() async throws -> ExitCode {
        try AICommandSupport.select(provider)
        do {
            let translation = try await AIBudsAISDK.translateText(text, from: from, to: to)
            if json {
                try AICommandSupport.printJSONLine(["from": from, "to": to, "text": text, "translation": translation])
            } else {
                CLI.say(translation)
            }
            return .ok
        } catch {
            throw AICommandSupport.failure(error, "translation failed")
        }
    }
}

/// `aibuds ai summarize (TEXT | --file F)`: summarizes text.
struct AISummarizeCommand: CLICommand {
    static let path = ["ai", "summarize"]
    static let abstract = "Summarize text (or a text file) with an AI provider."
    static let help = """
        usage: aibuds ai summarize (TEXT... | --file FILE) [--language LANG] [--provider P] [--json]

        Prints a short summary. The offline provider picks the two most representative sentences;
        openai asks the chat model.

        options:
          --file FILE      summarize this UTF-8 text file
          --language LANG  the text's language (default en)
        \(AICommandSupport.providerHelp)
        """

    var text: String?
    var file: String?
    var language: String
    var provider: String?
    var json: Bool

    init(_ arguments: inout Arguments) throws {
        file = try arguments.option("--file")
        language = try arguments.option("--language") ?? "en"
        provider = try AICommandSupport.providerOption(&arguments)
        json = arguments.flag("--json")
        let words = try arguments.positionals()
        text = words.isEmpty ? nil : words.joined(separator: " ")
    }

    func validate() throws {
        guard (text == nil) != (file == nil) else { throw CommandFailure.usage("give the text or --file FILE, not both") }
    }

    func run() async throws -> ExitCode {
        var input = text ?? ""
        if let file {
            guard let data = FileManager.default.contents(atPath: file) else { throw CommandFailure.usage("\(file): cannot read") }
            input = String(decoding: data, as: UTF8.self)
        }
        try AICommandSupport.select(provider)
        do {
            let summary = try await AIBudsAISDK.summary(input, language: language)
            if json { try AICommandSupport.printJSONLine(["summary": summary]) } else { CLI.say(summary) }
            return .ok
        } catch {
            throw AICommandSupport.failure(error, "summary failed")
        }
    }
}

/// `aibuds ai speak TEXT -o OUT.wav`: synthesizes speech into a WAV file.
struct AISpeakCommand: CLICommand {
    static let path = ["ai", "speak"]
    static let abstract = "Speak text into a WAV file."
    static let help = """
        usage: aibuds ai speak TEXT... -o OUT.wav [--language LANG] [--voice V] [--provider P] [--json]

        options:
          -o OUT.wav       the WAV file to write (replaced)
          --language LANG  the text's language (default en)
          --voice V        the provider's voice name (espeak-ng voice for offline)
        \(AICommandSupport.providerHelp)
        """

    var text: String
    var output: String
    var language: String
    var voice: String?
    var provider: String?
    var json: Bool

    init(_ arguments: inout Arguments) throws {
        guard let output = try arguments.option("-o") ?? arguments.option("--output") else {
            throw CommandFailure.usage("-o OUT.wav is required")
        }
        self.output = output
        language = try arguments.option("--language") ?? "en"
        voice = try arguments.option("--voice")
        provider = try AICommandSupport.providerOption(&arguments)
        json = arguments.flag("--json")
        text = try arguments.positionals().joined(separator: " ")
    }

    func validate() throws {
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { throw CommandFailure.usage("no text to speak") }
    }

    func run() async throws -> ExitCode {
        try AICommandSupport.select(provider)
        do {
            let audio = try await AIBudsAISDK.synthesizeText(text, language: language, voice: voice)
            try WAVFile.write(audio, to: URL(fileURLWithPath: output))
            if json {
                try AICommandSupport.printJSONLine(AudioReport(file: output, sampleRate: audio.sampleRate, seconds: audio.duration))
            } else {
                CLI.say(String(format: "wrote %@ (%.2f s at %d Hz)", output, audio.duration, audio.sampleRate))
            }
            return .ok
        } catch {
            throw AICommandSupport.failure(error, "speech failed")
        }
    }

    /// What `--json` prints.
    struct AudioReport: Encodable {
        var file: String
        var sampleRate: Int
        var seconds: Double
    }
}
