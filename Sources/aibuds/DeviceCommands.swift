import AIBuds
import AIBudsAllInOne
import AIBudsFoundation
import AIBudsLog
import Foundation

/// Shared setup of the device commands: the SDK with the default plugins, logging warnings to stderr.
enum DeviceCommandSupport {
    /// Initializes the SDK once for this process.
    static func initializeSDK() {
        guard !AIBudsSDK.isInitialized else { return }
        let configuration = SDKConfiguration.default()
        configuration.logLevel = .warning
        configuration.connectTimeoutInSeconds = 5
        configuration.commandTimeoutInSeconds = 3
        configuration.shouldAutoReconnectWhenAppLaunch = false
        configuration.reconnectPolicy = .never
        AIBudsAllInOne.initialize(configuration: configuration, options: .devicesOnly)
    }

    /// Writes `value` as pretty JSON to stdout.
    static func printJSON<Value: Encodable>(_ value: Value) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        CLI.sayJSON(try encoder.encode(value))
    }

    /// The exit status for an SDK error: unreachable devices exit 69.
    static func failure(_ error: any Error, _ what: String) -> CommandFailure {
        let sdk = AIBudsError.from(error)
        let unavailable: Set<SdkErrorCode> = [
            .peripheralUnavailable, .peripheralNotConnected, .bleCommandExecFailedDueToTimeout, .blePacketSendFailed,
            .blePacketSendTimeout, .deviceNotConnected, .pluginUnavailable,
        ]
        if sdk.code == .operationFailedDueToWrongParameters { return .usage("\(what): \(sdk.message)") }
        return unavailable.contains(sdk.code)
            ? .unavailable("\(what): \(sdk.message)") : .failure("\(what): \(sdk.message)")
    }

    /// Connects to a device a scan found (`name` names it in errors) and returns it connected.
    static func connect(_ found: any FoundDeviceConvertible, naming name: String) async throws -> any DeviceConvertible {
        guard let device = AIBudsSDK.makeStorableDeviceFromDiscovered(found) else {
            throw CommandFailure.failure("no plugin can handle \(name)")
        }
        do {
            try await device.connectAndWait(ConnectParams())
        } catch {
            throw failure(error, "cannot connect to \(name)")
        }
        return device
    }

    /// Connects to a device a scan found and returns it with its `API` (a capability protocol);
    /// a device without it is disconnected again and the failure says it `lacks` ("has no camera
    /// that streams live"), after the device's own name and product (`name` when it has none).
    static func connect<API>(
        _ found: any FoundDeviceConvertible, naming name: String, as _: API.Type, lacking: String
    ) async throws -> (device: any DeviceConvertible, api: API) {
        let device = try await connect(found, naming: name)
        guard let api = device as? API else {
            await device.disconnectAndWait()
            let named = device.name.isEmpty ? name : "\(device.name) (\(device.product))"
            throw CommandFailure.failure("\(named) \(lacking)")
        }
        return (device, api)
    }

    /// Finds the device that `spec` names: `udp://HOST:PORT`, `ble://AA:BB:CC:DD:EE:FF` (through
    /// BlueZ), or a name or MAC (BLE) address that a short scan finds. Throws exit 69 when there is none.
    static func find(_ spec: String) async throws -> any FoundDeviceConvertible {
        if spec.contains("://") {
            do {
                return try await AIBudsSDK.discoverDevice(at: spec)
            } catch {
                throw failure(error, "no device at \(spec)")
            }
        }
        let found: [any FoundDeviceConvertible]
        do {
            found = try await AIBudsSDK.scan(timeout: 1.5)
        } catch {
            throw failure(error, "scan failed")
        }
        let key = DeviceStore.normalizedMACKey(spec)
        let match = found.first { $0.name?.caseInsensitiveCompare(spec) == .orderedSame }
            ?? found.first { key.count == 12 && $0.macAddress.map(DeviceStore.normalizedMACKey) == key }
        guard let match else { throw CommandFailure.unavailable("no device named '\(spec)' was found") }
        return match
    }

    /// Pads `columns` into an aligned text table.
    static func table(_ header: [String], _ rows: [[String]]) -> String {
        // Cells hold device names and the like: escaped and capped (TerminalText).
        let all = [header] + rows.map { $0.map { TerminalText.safe($0) } }
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell.padding(toLength: widths[index] + 2, withPad: " ", startingAt: 0)
            }.joined()
        }.joined(separator: "\n")
    }
}

/// One found device as `aibuds scan --json` prints it.
struct FoundDeviceSummary: Encodable {
    var name: String
    var product: String
    var address: String
    /// `udp` (SMP over UDP) or `ble` (Bluetooth LE through BlueZ): the scheme of the address.
    var transport: String
    var mac: String?
    var rssi: Int?
    var model: String?
    var firmware: String?
    var capabilities: [String]?

    init(_ device: any FoundDeviceConvertible) {
        let identity = (device as? FoundDevice)?.identity
        name = device.name ?? "unnamed"
        product = "\(device.product)"
        address = device.peripheral.address.description
        transport = device.peripheral.address.scheme
        mac = device.macAddress
        rssi = device.RSSI?.intValue
        model = identity?.model
        firmware = identity?.firmwareVersion
        capabilities = identity.map { $0.capabilities.map(\.rawValue).sorted() }
    }
}
