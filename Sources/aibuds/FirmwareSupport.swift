import AIBuds
import AIBudsFoundation
import AIBudsSMP
import AIBudsSMPClient
import AIBudsWire
import Foundation

/// Shared parts of the `aibuds firmware` commands: the device option, the connection to an SMP
/// device, the slot table.
enum Firmware {
    /// The help line of `--device`.
    static let deviceHelp = "  --device D         the device: a name, MAC or BLE address, udp://HOST:PORT or ble://ADDRESS"

    /// Connects to the device `spec` names, runs `body` with its SMP client, and disconnects.
    static func withClient<T>(_ spec: String, _ body: (SMPClient) async throws -> T) async throws -> T {
        DeviceCommandSupport.initializeSDK()
        let found = try await DeviceCommandSupport.find(spec)
        let device = try await DeviceCommandSupport.connect(found, naming: spec)
        do {
            guard let base = device as? BaseDevice else { throw CommandFailure.failure("\(spec) is not an SMP device") }
            let session: SMPDeviceSession
            do {
                session = try base.readySession(SMPDeviceSession.self)
            } catch {
                throw CommandFailure.failure("\(spec) is not an SMP device: \(AIBudsError.from(error).message)")
            }
            let result: T
            do {
                result = try await body(session.client)
            } catch let error as SMPError {
                throw failure(error)
            }
            await device.disconnectAndWait()
            return result
        } catch {
            await device.disconnectAndWait()
            throw error
        }
    }

    /// The exit status of an SMP error: a device that stopped answering exits 69, a refused
    /// request says which Image group code it got.
    static func failure(_ error: SMPError) -> CommandFailure {
        switch error.code {
        case .timeout, .transport, .closed: return .unavailable(error.message)
        case .invalidRequest: return .usage(error.message)
        case .device(let device) where device.group == SMPGroupID.image:
            let name = ImageManagementError(rawValue: device.rc).map { "\($0)" } ?? "rc \(device.rc)"
            return .failure("the device refused: \(name) (IMG_MGMT_ERR \(device.rc))")
        default: return .failure(error.message)
        }
    }

    /// Slot states as `aibuds firmware state --json` prints them.
    struct SlotReport: Encodable {
        var image: UInt64
        var slot: UInt64
        var version: String
        var hash: String
        var flags: [String]

        init(_ state: ImageSlotState) {
            image = state.imageNumber
            slot = state.slot
            version = state.version
            hash = state.hash?.map { String(format: "%02x", $0) }.joined() ?? ""
            flags = [("active", state.isActive), ("confirmed", state.isConfirmed), ("pending", state.isPending),
                     ("permanent", state.isPermanent), ("bootable", state.bootable ?? false)].filter(\.1).map(\.0)
        }
    }

    /// Prints `states` as a table or JSON.
    static func print(_ states: [ImageSlotState], json: Bool) throws {
        let reports = states.map(SlotReport.init)
        if json { return try DeviceCommandSupport.printJSON(reports) }
        CLI.say(DeviceCommandSupport.table(
            ["IMAGE", "SLOT", "VERSION", "FLAGS", "HASH"],
            reports.map { ["\($0.image)", "\($0.slot)", $0.version, $0.flags.joined(separator: ","), $0.hash] }))
    }

    /// Parses a 64-digit hex SHA-256.
    static func hash(_ text: String) throws -> Data {
        let digits = Array(text.lowercased().utf8)
        guard digits.count == 64 else { throw CommandFailure.usage("a hash is 64 hex digits, not '\(text)'") }
        var bytes = Data()
        for index in stride(from: 0, to: 64, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else {
                throw CommandFailure.usage("'\(text)' is not hex")
            }
            bytes.append(byte)
        }
        return bytes
    }
}
