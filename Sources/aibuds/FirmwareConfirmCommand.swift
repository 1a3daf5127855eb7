import Foundation

/// `aibuds firmware confirm`: makes the running (or another) image permanent.
struct FirmwareConfirmCommand: CLICommand {
    static let path = ["firmware", "confirm"]
    static let abstract = "Confirm the running image (or make an uploaded one permanent)."
    static let help = """
        usage: aibuds firmware confirm --device D [HASH]

        Without HASH, confirms the running image so that it stays after resets (do this after a test
        boot). With the hash of an uploaded image, swaps it in for good at the next reset, without a
        test boot. Prints the new slot states.

        options:
        \(Firmware.deviceHelp)
        """

    let device: String
    let hash: Data?

    init(_ arguments: inout Arguments) throws {
        device = try arguments.required("--device")
        let words = try arguments.positionals()
        guard words.count <= 1 else { throw CommandFailure.usage("give at most one hash") }
        hash = try words.first.map(Firmware.hash)
    }

    func run() async throws -> ExitCode {
        let states = try await Firmware.withClient(device) { try await $0.confirmImage(hash: hash) }
        try Firmware.print(states, json: false)
        return .ok
    }
}
