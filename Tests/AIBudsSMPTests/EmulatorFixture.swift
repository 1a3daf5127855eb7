@testable import AIBuds
import AIBudsEmulator
import AIBudsFoundation
import AIBudsLog
import AIBudsNet
import AIBudsSMP
import AIBudsTestKit
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Starts in-process emulators that announce themselves in a test's own discovery folder.
struct EmulatorFixture {
    let directory: URL

    init(_ name: String = #function) throws {
        directory = try makeTemporaryDirectory(name)
    }

    var discoveryDirectory: URL { directory.appendingPathComponent("aibuds/devices") }

    /// A plugin scanning this fixture's folder, with a short event wait so that losses show quickly.
    func plugin() -> SMPConnectSDK {
        SMPConnectSDK(discoveryDirectory: discoveryDirectory, eventWait: .milliseconds(400))
    }

    /// A running emulator and its bound address.
    struct Running {
        let emulator: Emulator
        let address: SocketAddress
        /// `udp://HOST:PORT`.
        var url: String { "udp://\(address)" }
        func stop() { emulator.stop() }
    }

    /// Starts an emulator; `port` 0 picks a free port.
    func start(
        _ profile: DeviceProfile.Kind, name: String, port: UInt16 = 0, link: LinkProfile = .unlimited,
        faults: [String] = [], announce: Bool = true
    ) throws -> Running {
        var configuration = EmulatorConfiguration()
        configuration.profile = profile
        configuration.name = name
        configuration.listen = SocketAddress(host: "127.0.0.1", port: port)
        configuration.link = link
        configuration.faults = try FaultConfiguration.parse(faults)
        configuration.announce = announce
        configuration.discoveryDirectory = discoveryDirectory
        configuration.stateDirectory = directory.appendingPathComponent("state-\(name)")
        let emulator = try Emulator(configuration: configuration)
        let address = try emulator.start()
        return Running(emulator: emulator, address: address)
    }

    /// The SDK configuration the emulator tests use: short timeouts and a fast reconnect.
    func configuration() -> SDKConfiguration {
        let configuration = SDKConfiguration.default()
        configuration.logService = RecordingLogService(minimumLevel: .info)
        configuration.commandTimeoutInSeconds = 1
        // A connect is a handful of requests; 3 s was once too little beside the compute-heavy
        // suites on two cores (the firmware tests run with stabilization and the audio codecs).
        configuration.connectTimeoutInSeconds = 10
        configuration.storedDevicesURL = directory.appendingPathComponent("devices.json")
        configuration.reconnectPolicy = ReconnectPolicy(
            maximumAttempts: 40, initialDelay: .milliseconds(100), maximumDelay: .milliseconds(300))
        return configuration
    }

    /// Scans until a device with `name` is found and returns it as a storable device.
    /// Scans until a device named `name` is found, as an app scans again (up to four scans of
    /// `timeout`: on a loaded machine a device on the `ble` link once answered its identity after
    /// the first scan ended).
    func device(named name: String, timeout: Double = 1.5) async throws -> any DeviceConvertible {
        for _ in 0..<4 {
            let found = try await AIBudsSDK.scan(timeout: timeout)
            if let match = found.first(where: { $0.name == name }), let device = AIBudsSDK.makeStorableDeviceFromDiscovered(match) {
                return device
            }
        }
        throw AIBudsError(.peripheralUnavailable, "\(name) was not found")
    }

    /// Scans once and returns a storable device for each name, in order.
    func devices(named names: [String], timeout: Double = 1.2) async throws -> [any DeviceConvertible] {
        let found = try await AIBudsSDK.scan(timeout: timeout)
        return try names.map { name in
            guard let match = found.first(where: { $0.name == name }),
                let device = AIBudsSDK.makeStorableDeviceFromDiscovered(match)
            else { throw AIBudsError(.peripheralUnavailable, "\(name) was not found") }
            return device
        }
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}

