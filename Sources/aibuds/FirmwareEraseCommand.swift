import Foundation

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
        device = try arguments.required("--device")
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
