import Foundation

/// `aibuds firmware state`: the device's firmware slots.
struct FirmwareStateCommand: CLICommand {
    static let path = ["firmware", "state"]
    static let abstract = "Show the firmware images in the device's slots (SMP Image group)."
    static let help = """
        usage: aibuds firmware state --device D [--json]

        Prints each occupied slot: image (0 the main firmware, 1 the camera's), slot (0 runs, 1
        takes uploads), version, flags (active, confirmed, pending, permanent, bootable) and the
        image hash that 'firmware test' and 'firmware confirm' take.

        options:
        \(Firmware.deviceHelp)
          --json             one JSON document
        """

    let device: String
    let json: Bool

    init(_ arguments: inout Arguments) throws {
        device = try arguments.required("--device")
        json = arguments.flag("--json")
    }

    func run() async throws -> ExitCode {
        let states = try await Firmware.withClient(device) { try await $0.imageState() }
        try Firmware.print(states, json: json)
        return .ok
    }
}
