import Foundation

/// `aibuds firmware test`: marks an uploaded image for one test boot.
struct FirmwareTestCommand: CLICommand {
    static let path = ["firmware", "test"]
    static let abstract = "Mark an uploaded image to boot once at the next reset."
    static let help = """
        usage: aibuds firmware test --device D HASH

        The image with HASH (as 'firmware state' prints it) runs after the next reset; unless it is
        confirmed then, the reset after goes back to the previous one. Prints the new slot states.

        options:
        \(Firmware.deviceHelp)
        """

    let device: String
    let hash: Data

    init(_ arguments: inout Arguments) throws {
        device = try arguments.required("--device")
        let words = try arguments.positionals()
        guard words.count == 1 else { throw CommandFailure.usage("give the hash of one image") }
        hash = try Firmware.hash(words[0])
    }

    func run() async throws -> ExitCode {
        let states = try await Firmware.withClient(device) { try await $0.testImage(hash: hash) }
        try Firmware.print(states, json: false)
        return .ok
    }
}
