import Foundation
import TopStepComKit

/// `aibuds recordings list`: lists a device's audio recordings through the TopStep facade.
struct RecordingsListCommand: CLICommand {
    static let path = ["recordings", "list"]
    static let abstract = "List a device's audio recordings (TopStep TSMediaFile)."
    static let help = """
        usage: aibuds recordings list --device udp://HOST:PORT [--json]

        Prints one line per recording: its size in bytes, a tab, and its device file name.

        options:
        \(Recordings.deviceHelp)
          --json             print a JSON array of {name, size, type} instead
        """

    let device: String
    let json: Bool

    init(_ arguments: inout Arguments) throws {
        device = try Recordings.deviceOption(&arguments)
        json = arguments.flag("--json")
    }

    func run() async throws -> ExitCode {
        try await Recordings.withKit(device) { kit in try await run(kit) }
    }

    private func run(_ kit: TopStepComKit) async throws -> ExitCode {
        let files = try await Recordings.fetch(kit.mediaFile)
        if json {
            let entries = files.map { Entry(name: $0.fileName, size: $0.fileSize?.uint64Value, type: $0.type.description) }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            CLI.sayJSON(try encoder.encode(entries))
        } else {
            for file in files {
                CLI.say("\(file.fileSize.map { "\($0)" } ?? "-")\t\(TerminalText.safe(file.fileName))")
            }
        }
        return .ok
    }

    /// One recording in the JSON output.
    private struct Entry: Encodable {
        var name: String
        var size: UInt64?
        var type: String
    }
}
