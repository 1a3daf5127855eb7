import AIBuds
import AIBudsFoundation
import Foundation

/// `aibuds scan [--timeout S] [--json]`: lists the devices found on this host.
struct ScanCommand: CLICommand {
    static let path = ["scan"]
    static let abstract = "Find devices (running emulators on this host)."
    static let help = """
        usage: aibuds scan [--timeout SECONDS] [--json]

        Scans for SECONDS (default 2) and prints every device found: name, product, transport
        (udp: SMP over UDP; ble: Bluetooth LE through BlueZ), address, MAC address and RSSI.

        options:
          --timeout SECONDS  how long to scan, 0.1 to 600 (default 2)
          --json             print a JSON array instead of a table
        """

    var timeout: Double
    var json: Bool

    init(_ arguments: inout Arguments) throws {
        timeout = try arguments.number("--timeout", as: Double.self) ?? 2
        json = arguments.flag("--json")
    }

    func validate() throws {
        guard timeout >= 0.1, timeout <= 600 else { throw CommandFailure.usage("--timeout must be 0.1 to 600 seconds") }
    }

    func run() async throws -> ExitCode {
        DeviceCommandSupport.initializeSDK()
        let devices: [any FoundDeviceConvertible]
        do {
            devices = try await AIBudsSDK.scan(timeout: timeout)
        } catch {
            throw DeviceCommandSupport.failure(error, "scan failed")
        }
        let summaries = devices.map(FoundDeviceSummary.init)
        if json {
            try DeviceCommandSupport.printJSON(summaries)
        } else if summaries.isEmpty {
            CLI.say("no devices found")
        } else {
            CLI.say(DeviceCommandSupport.table(
                ["NAME", "PRODUCT", "TRANSPORT", "ADDRESS", "MAC", "RSSI"],
                summaries.map {
                    [$0.name, $0.product, $0.transport, $0.address, $0.mac ?? "-", $0.rssi.map(String.init) ?? "-"]
                }))
        }
        return .ok
    }
}
