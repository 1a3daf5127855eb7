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
        guard let device = try arguments.option("--device") else { throw CommandFailure.usage("--device is required") }
        self.device = device
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
        guard let device = try arguments.option("--device") else { throw CommandFailure.usage("--device is required") }
        self.device = device
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

/// `aibuds firmware erase`: empties an image's upload slot.
struct FirmwareEraseCommand: CLICommand {
    static let path = ["firmware", "erase"]
    static let abstract = "Erase the upload (secondary) slot of a firmware image."
    static let help = """
        usage: aibuds firmware erase --device D [--image N]

        Erases the secondary slot of image N (default 0) and abandons an upload to it. The device
        refuses while that slot holds a pending image or the image a test boot goes back to.

        options:
        \(Firmware.deviceHelp)
          --image N          0 the main firmware (default), 1 the camera's
        """

    let device: String
    let image: Int

    init(_ arguments: inout Arguments) throws {
        guard let device = try arguments.option("--device") else { throw CommandFailure.usage("--device is required") }
        self.device = device
        image = try arguments.number("--image") ?? 0
    }

    func validate() throws {
        guard (0...1).contains(image) else { throw CommandFailure.usage("--image must be 0 or 1") }
    }

    func run() async throws -> ExitCode {
        try await Firmware.withClient(device) { try await $0.eraseImage(image: image) }
        CLI.say("erased the secondary slot of image \(image)")
        return .ok
    }
}
