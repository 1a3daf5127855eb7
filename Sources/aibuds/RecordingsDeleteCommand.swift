import Foundation
import TopStepComKit

/// `aibuds recordings delete`: deletes audio recordings from a device.
struct RecordingsDeleteCommand: CLICommand {
    static let path = ["recordings", "delete"]
    static let abstract = "Delete audio recordings from a device."
    static let help = """
        usage: aibuds recordings delete --device udp://HOST:PORT NAME...

        Deletes the named recordings (device file names, as 'recordings list' prints them). The
        list is fetched again before each deletion, since a deletion invalidates it. Prints
        'deleted NAME' per file.

        options:
        \(Recordings.deviceHelp)
        """

    let device: String
    let names: [String]

    init(_ arguments: inout Arguments) throws {
        device = try Recordings.deviceOption(&arguments)
        names = try arguments.positionals()
    }

    func validate() throws {
        if names.isEmpty { throw CommandFailure.usage("name the recordings to delete") }
    }

    func run() async throws -> ExitCode {
        try await Recordings.withKit(device) { kit in try await run(kit) }
    }

    private func run(_ kit: TopStepComKit) async throws -> ExitCode {
        for name in names {
            let files = try await Recordings.fetch(kit.mediaFile)
            let file = try Recordings.select([name], from: files)[0]
            try await Recordings.delete(kit.mediaFile, file)
            CLI.say("deleted \(TerminalText.safe(name))")
        }
        return .ok
    }
}
