import AIBuds
import AIBudsFoundation
import Foundation

/// `aibuds media delete`: deletes device files by name, or all of them.
struct MediaDeleteCommand: CLICommand {
    static let path = ["media", "delete"]
    static let abstract = "Delete media files from a device."
    static let help = """
        usage: aibuds media delete --device D NAME... | --all

        Deletes the named device files (exact device names), or every media file with --all.

        options:
          --device D    the device: udp://HOST:PORT, or a name or MAC address from 'aibuds scan'
          --all         delete every media file on the device
        """

    var device: String
    var all: Bool
    var names: [String]

    init(_ arguments: inout Arguments) throws {
        device = try arguments.option("--device") ?? ""
        all = arguments.flag("--all")
        names = try arguments.positionals()
    }

    func validate() throws {
        if device.isEmpty { throw CommandFailure.usage("media delete needs --device D") }
        if all && !names.isEmpty { throw CommandFailure.usage("give either --all or file names, not both") }
        if !all && names.isEmpty { throw CommandFailure.usage("name the files to delete, or give --all") }
    }

    func run() async throws -> ExitCode {
        try await MediaDeviceConnection.using(device) { connection in try await run(connection) }
    }

    private func run(_ connection: MediaDeviceConnection) async throws -> ExitCode {
        let engine = connection.device.mediaImport
        if all {
            do {
                let deleted = try await engine.deleteAllMediaFiles()
                CLI.say("Deleted \(deleted) files.")
                return .ok
            } catch {
                throw CommandFailure.failure("deleting all media failed: \(Self.describe(error))")
            }
        }
        var failed = 0
        for name in names {
            do {
                try await engine.deleteMediaFile(named: name)
                CLI.say("deleted \(TerminalText.safe(name))")
            } catch {
                failed += 1
                CLI.printError("\(TerminalText.safe(name)): \(TerminalText.safe(Self.describe(error)))")
            }
        }
        return failed == 0 ? .ok : .failure
    }

    /// The error's message with the device's status code, when it gave one.
    static func describe(_ error: any Error) -> String {
        let error = AIBudsError.from(error)
        return error.message + (error.deviceStatusCode.map { " (device status \($0))" } ?? "")
    }
}
