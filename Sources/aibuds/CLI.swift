import AIBudsLog
import Foundation

/// Exit statuses of the `aibuds` command (sysexits.h).
enum ExitCode: Int32 {
    /// Success.
    case ok = 0
    /// Any other failure.
    case failure = 1
    /// The command line was wrong.
    case usage = 64
    /// The device could not be reached.
    case unavailable = 69
    /// The command was interrupted (Ctrl-C) and stopped cleanly.
    case interrupted = 130
}

/// A failure that ends a command with a given exit status and one line on stderr.
struct CommandFailure: Error {
    /// The exit status.
    var exitCode: ExitCode
    /// The one-line message.
    var message: String

    /// A usage error (exit 64).
    static func usage(_ message: String) -> CommandFailure { CommandFailure(exitCode: .usage, message: message) }
    /// The device could not be reached (exit 69).
    static func unavailable(_ message: String) -> CommandFailure { CommandFailure(exitCode: .unavailable, message: message) }
    /// Any other failure (exit 1).
    static func failure(_ message: String) -> CommandFailure { CommandFailure(exitCode: .failure, message: message) }
}

/// One subcommand, in swift-argument-parser's shape: parse, `validate()`, then `run()`.
protocol CLICommand: Sendable {
    /// The words that select this command, for example `["media", "import"]`.
    static var path: [String] { get }
    /// One line for the command list.
    static var abstract: String { get }
    /// The full help text (usage line and options).
    static var help: String { get }
    /// Reads the arguments; unknown or malformed ones throw a usage failure.
    init(_ arguments: inout Arguments) throws
    /// Checks the parsed arguments before anything runs.
    func validate() throws
    /// Runs the command; returns the exit status.
    func run() async throws -> ExitCode
}

extension CLICommand {
    func validate() throws {}
}

/// The command-line arguments of one subcommand, consumed as they are read.
struct Arguments {
    private var words: [String]

    /// Wraps the words after the subcommand's name.
    init(_ words: [String]) { self.words = words }

    /// Removes `--name` and returns whether it was present.
    mutating func flag(_ name: String) -> Bool {
        guard let index = words.firstIndex(of: name) else { return false }
        words.remove(at: index)
        return true
    }

    /// Removes `--name VALUE` (or `--name=VALUE`) and returns the value, if present.
    mutating func option(_ name: String) throws -> String? {
        if let index = words.firstIndex(where: { $0.hasPrefix(name + "=") }) {
            let value = String(words[index].dropFirst(name.count + 1))
            words.remove(at: index)
            return value
        }
        guard let index = words.firstIndex(of: name) else { return nil }
        guard index + 1 < words.count else { throw CommandFailure.usage("\(name) needs a value") }
        let value = words[index + 1]
        words.removeSubrange(index...index + 1)
        return value
    }

    /// Removes `--name VALUE` (or `--name=VALUE`) and returns the value; a usage error names the
    /// option (with `placeholder`, `--to DIR is required`) when it is missing.
    mutating func required(_ name: String, _ placeholder: String? = nil) throws -> String {
        guard let value = try option(name) else {
            throw CommandFailure.usage("\(name)\(placeholder.map { " \($0)" } ?? "") is required")
        }
        return value
    }

    /// Removes every `--name VALUE` and returns the values in order.
    mutating func options(_ name: String) throws -> [String] {
        var values: [String] = []
        while let value = try option(name) { values.append(value) }
        return values
    }

    /// Reads `--name VALUE` as a number of type `T`.
    mutating func number<T: LosslessStringConvertible>(_ name: String, as type: T.Type = T.self) throws -> T? {
        guard let text = try option(name) else { return nil }
        guard let value = T(text) else { throw CommandFailure.usage("\(name) takes a number, not '\(text)'") }
        return value
    }

    /// Returns the remaining positional words; any leftover `--option` is a usage error.
    mutating func positionals() throws -> [String] {
        if let unknown = words.first(where: { $0.hasPrefix("-") && $0 != "-" }) {
            throw CommandFailure.usage("unknown option '\(unknown)'")
        }
        defer { words = [] }
        return words
    }

    /// Fails when anything was left unread.
    func finish() throws {
        if let extra = words.first { throw CommandFailure.usage("unexpected argument '\(extra)'") }
    }
}

/// Finds and runs the subcommand that the command line names.
enum CLI {
    /// Every command of `aibuds`; a command adds itself here in one line.
    static let commands: [any CLICommand.Type] = registeredCommands

    /// The top-level help text.
    static var help: String {
        var lines = ["usage: aibuds <command> [options]", "", "commands:"]
        let width = commands.map { $0.path.joined(separator: " ").count }.max() ?? 0
        for command in commands {
            let name = command.path.joined(separator: " ")
            lines.append("  " + name.padding(toLength: width + 2, withPad: " ", startingAt: 0) + command.abstract)
        }
        lines.append("")
        lines.append("Run 'aibuds <command> --help' for a command's options.")
        return lines.joined(separator: "\n")
    }

    /// Picks the command with the longest matching path.
    static func command(for words: [String]) -> (any CLICommand.Type, [String])? {
        let matches = commands.filter { words.starts(with: $0.path) }
        guard let best = matches.max(by: { $0.path.count < $1.path.count }) else { return nil }
        return (best, Array(words.dropFirst(best.path.count)))
    }

    /// Runs the command line and returns the exit status.
    static func main(_ words: [String]) async -> ExitCode {
        if words.isEmpty || words == ["--help"] || words == ["-h"] || words == ["help"] {
            say(help)
            return words.isEmpty ? .usage : .ok
        }
        let words = words == ["--version"] ? ["version"] : words
        guard let (type, rest) = command(for: words) else {
            printError("unknown command '\(words.joined(separator: " "))'; run 'aibuds --help'")
            return .usage
        }
        if rest.contains("--help") || rest.contains("-h") {
            say(type.help)
            return .ok
        }
        do {
            var arguments = Arguments(rest)
            let command = try type.init(&arguments)
            try arguments.finish()
            try command.validate()
            return try await command.run()
        } catch let failure as CommandFailure {
            printError(failure.message)
            return failure.exitCode
        } catch {
            printError(String(describing: error))
            return .failure
        }
    }

    /// Writes one human-readable line to standard output at once (unbuffered, so pipes see it
    /// immediately), with any control or format character in it escaped (`TerminalText`): device
    /// text that reached it without being made safe still cannot drive the terminal.
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((TerminalText.keepingLines(line) + "\n").utf8))
    }

    /// Writes a JSON document to standard output exactly as encoded (JSON escaping only), then a
    /// newline.
    static func sayJSON(_ document: Data) {
        FileHandle.standardOutput.write(document + Data("\n".utf8))
    }

    /// Writes `bytes` to standard output at once, then a newline (for documents of many
    /// kilobytes, without making a `String` of them first); throws when they cannot be written.
    static func say(bytes: [UInt8]) throws {
        var line = bytes
        line.append(UInt8(ascii: "\n"))
        try FileHandle.standardOutput.write(contentsOf: line)
    }

    /// Writes one line to standard error: registered secrets (API keys, tokens, passphrases) are
    /// redacted, line breaks and other controls in `message` are escaped, and a message over 1,000
    /// characters is cut with an ellipsis.
    static func printError(_ message: String) {
        let redacted = LogRedactor.shared.redact(message)
        FileHandle.standardError.write(Data("aibuds: \(TerminalText.safe(redacted, limit: 1000))\n".utf8))
    }
}
