import AIBuds
import AIBudsFoundation
import Foundation

/// `aibuds devices [--json]`: lists the stored devices.
struct DevicesCommand: CLICommand {
    static let path = ["devices"]
    static let abstract = "List the stored devices."
    static let help = """
        usage: aibuds devices [--json]

        Prints the devices stored by apps of this user ($XDG_DATA_HOME/aibuds/devices.json):
        name, product, MAC address, address and last connection.

        options:
          --json  print a JSON array instead of a table
        """

    var json: Bool

    init(_ arguments: inout Arguments) throws {
        json = arguments.flag("--json")
    }

    /// One stored device as `--json` prints it.
    struct Summary: Encodable {
        var name: String
        var product: String
        var mac: String?
        var address: String
        var model: String?
        var firmware: String?
        var lastConnectTime: Date?
    }

    func run() async throws -> ExitCode {
        DeviceCommandSupport.initializeSDK()
        let devices: [any DeviceConvertible]
        do {
            devices = try await StoredDevicesMgr.loadDevices()
        } catch {
            throw CommandFailure.failure("cannot read the stored devices: \(AIBudsError.from(error).message)")
        }
        let summaries = devices.map {
            Summary(
                name: $0.name, product: "\($0.product)", mac: $0.macAddress, address: $0.peripheral.address.description,
                model: $0.deviceModel, firmware: $0.firmwareVersion, lastConnectTime: $0.lastConnectTime)
        }
        if json {
            try DeviceCommandSupport.printJSON(summaries)
        } else if summaries.isEmpty {
            CLI.say("no stored devices")
        } else {
            CLI.say(DeviceCommandSupport.table(
                ["NAME", "PRODUCT", "MAC", "ADDRESS", "LAST CONNECTED"],
                summaries.map {
                    [$0.name, $0.product, $0.mac ?? "-", $0.address,
                     $0.lastConnectTime.map { $0.formatted(Date.ISO8601FormatStyle()) } ?? "never"]
                }))
        }
        return .ok
    }
}
