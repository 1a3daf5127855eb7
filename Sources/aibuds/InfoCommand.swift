import AIBuds
import AIBudsFoundation
import Foundation

/// `aibuds info --device NAME|udp://HOST:PORT [--json]`: connects and prints what the device reports.
struct InfoCommand: CLICommand {
    static let path = ["info"]
    static let abstract = "Connect to a device and print its information."
    static let help = """
        usage: aibuds info --device NAME|MAC|udp://HOST:PORT [--json]

        Connects to the device (found by scanning for its name or MAC address, or at the given
        address), prints its identity, battery, storage, media counts, work state, language and
        clock, and disconnects.

        options:
          --device DEVICE  a device name or MAC address, or udp://HOST:PORT
          --json           print a JSON object instead of text
        """

    var device: String
    var json: Bool

    init(_ arguments: inout Arguments) throws {
        device = try arguments.required("--device")
        json = arguments.flag("--json")
    }

    func validate() throws {
        guard !device.isEmpty else { throw CommandFailure.usage("--device must not be empty") }
        if device.contains("://") {
            do { _ = try DeviceAddress(parsing: device) } catch { throw CommandFailure.usage("\(AIBudsError.from(error).message)") }
        }
    }

    /// What `aibuds info --json` prints.
    struct Report: Encodable {
        var name: String
        var product: String
        var address: String
        var mac: String?
        var model: String?
        var serial: String?
        var firmware: String?
        var capabilities: [String]
        var batteryLevel: Int?
        var charging: Bool?
        var storageUsedMB: Int?
        var storageFreeMB: Int?
        var photos: Int?
        var videos: Int?
        var audios: Int?
        var workState: String?
        var language: String?
        var supportedLanguages: [String]
        var deviceTime: Date?
    }

    func run() async throws -> ExitCode {
        DeviceCommandSupport.initializeSDK()
        let found = try await DeviceCommandSupport.find(device)
        guard let device = AIBudsSDK.makeStorableDeviceFromDiscovered(found), let base = device as? BaseDevice else {
            throw CommandFailure.failure("no plugin can handle \(device)")
        }
        do {
            try await device.connectAndWait(ConnectParams())
        } catch {
            throw DeviceCommandSupport.failure(error, "cannot connect to \(self.device)")
        }
        let report: Report
        do {
            report = try await makeReport(base)
        } catch {
            await device.disconnectAndWait()
            throw DeviceCommandSupport.failure(error, "reading \(self.device) failed")
        }
        await device.disconnectAndWait()
        if json {
            try DeviceCommandSupport.printJSON(report)
        } else {
            print(report)
        }
        return .ok
    }

    private func makeReport(_ device: BaseDevice) async throws -> Report {
        let status = device.currentStatus
        var report = Report(
            name: device.name, product: "\(device.product)", address: device.peripheral.address.description,
            mac: device.macAddress, model: device.deviceModel, serial: device.deviceSerialNum,
            firmware: device.firmwareVersion, capabilities: device.capabilities.map(\.rawValue).sorted(),
            workState: "\(status.workState)", supportedLanguages: status.supportedLanguages.map(\.rawValue))
        if let info = device as? DeviceInfoAPI {
            let battery = try await info.requestQueryBatteryStatus()
            let storage = try await info.requestQueryStorageInfo()
            let count = try await info.requestQueryMediaCountInfo()
            report.batteryLevel = battery.level.intValue
            report.charging = battery.isCharging
            report.storageUsedMB = storage.usedSpaceInMB.intValue
            report.storageFreeMB = storage.freeSpaceInMB.intValue
            report.photos = count.photoCount.intValue
            report.videos = count.videoCount.intValue
            report.audios = count.audioCount.intValue
            report.language = try await info.requestQueryLanguage().rawValue
            report.deviceTime = try await info.requestQueryDeviceTime()
        }
        if let work = device as? DeviceWorkStateAPI {
            report.workState = "\(try await work.requestQueryWorkState())"
        }
        return report
    }

    private func print(_ report: Report) {
        // Every value may come from the device: escaped and capped (TerminalText).
        func line(_ label: String, _ value: String?) {
            CLI.say(label.padding(toLength: 14, withPad: " ", startingAt: 0) + (value.map { TerminalText.safe($0) } ?? "-"))
        }
        line("name", report.name)
        line("product", report.product)
        line("address", report.address)
        line("mac", report.mac)
        line("model", report.model)
        line("serial", report.serial)
        line("firmware", report.firmware)
        line("capabilities", report.capabilities.joined(separator: ", "))
        line("battery", report.batteryLevel.map { "\($0)%" + (report.charging == true ? ", charging" : "") })
        line("storage", report.storageUsedMB.map { "\($0) MB used, \(report.storageFreeMB ?? 0) MB free" })
        line("media", report.photos.map { "\($0) photos, \(report.videos ?? 0) videos, \(report.audios ?? 0) audios" })
        line("work state", report.workState)
        line("language", report.language.map { "\($0) (of \(report.supportedLanguages.joined(separator: ", ")))" })
        line("device time", report.deviceTime.map { $0.formatted(Date.ISO8601FormatStyle()) })
    }
}
