import AIBuds
import AIBudsBlueZ
import AIBudsEmulator
import AIBudsFoundation
import AIBudsLog
import AIBudsNet
import AIBudsSMP
import AIBudsTestKit
import Foundation
import Testing

/// The BLE link against scripts/bluez/standin.py, a stand-in of BlueZ's D-Bus API written from
/// BlueZ's documentation in Python (not from this project's Swift stand-in), bridged to an
/// emulated device on UDP. It offers only `WriteValue` and `StartNotify` (`AcquireWrite` and
/// `AcquireNotify` answer `NotSupported`, as BlueZ before 5.46 does), and its device's BLE address
/// and alias differ from the MAC and name the device reports over SMP, as real devices' often do.
@Suite(.sdkState(.exclusive), .serialized, .timeLimit(.minutes(2))) struct BlueZIndependentStandInTests {
    private static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../scripts/bluez/standin.py").standardized

    /// A private bus with the stand-in on it, bridged to `emulator` at BLE address `address`.
    private struct StandIn {
        let bus: PrivateBus
        let program: RunningProgram

        static func start(bus: PrivateBus, address: String, alias: String, device: SocketAddress, mtu: Int) async throws -> StandIn {
            let program = try RunningProgram(
                URL(fileURLWithPath: "/usr/bin/python3"),
                [script.path, "--address", address, "--alias", alias, "--smp", "\(device.host):\(device.port)", "--mtu", "\(mtu)"],
                environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address])
            let first = try await onOwnThread { program.readLine() }
            guard first == "ready\n" else {
                program.kill()
                throw AIBudsError(.unknown, "the stand-in did not start: \(try await onOwnThread { program.finish() }.err)")
            }
            return StandIn(bus: bus, program: program)
        }

        func stop() async {
            program.terminate()
            _ = await program.ended()
        }
    }

    private static func emulator(_ profile: DeviceProfile.Kind) throws -> (Emulator, SocketAddress) {
        var configuration = EmulatorConfiguration()
        configuration.profile = profile
        configuration.listen = SocketAddress(host: "127.0.0.1", port: 0)
        configuration.announce = false
        let emulator = try Emulator(configuration: configuration)
        return (emulator, try emulator.start())
    }

    @Test(arguments: [247, 23]) func aDeviceWhoseIdentityDiffersFromItsAdvertisementConnectsThroughWriteValue(mtu: Int) async throws {
        AIBudsSDK.resetForTesting()
        defer { AIBudsSDK.resetForTesting() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bluez-independent-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let bus = try await onOwnThread { try PrivateBus() }
        let (watch, watchAddress) = try Self.emulator(.watch)
        let (glasses, glassesAddress) = try Self.emulator(.glasses)
        let bleAddress = "C0:FF:EE:12:34:56"
        #expect(watch.device.identity.mac.uppercased() != bleAddress)
        var standIn = try await StandIn.start(bus: bus, address: bleAddress, alias: "Running Watch", device: watchAddress, mtu: mtu)

        let log = RecordingLogService(minimumLevel: .info)
        let configuration = SDKConfiguration.default()
        configuration.logService = log
        // Generous: the suite also runs under Thread Sanitizer, with a Python stand-in in between.
        configuration.commandTimeoutInSeconds = 10
        configuration.connectTimeoutInSeconds = 30
        configuration.storedDevicesURL = folder.appendingPathComponent("devices.json")
        #expect(AIBudsSDK.initialize([BlueZConnectSDK(busAddress: bus.address)], configuration: configuration))

        do {
            // Scans again until the stand-in's device is seen, as an app does (under Thread
            // Sanitizer a 2 s scan once ended before the Python stand-in had answered).
            var seen: (any FoundDeviceConvertible)?
            for _ in 0..<5 where seen == nil {
                seen = try await AIBudsSDK.scan(timeout: 3).first { $0.peripheral.name == "Running Watch" }
            }
            let advertised = try #require(seen)
            #expect(advertised.peripheral.address.description == "ble://\(bleAddress)")
            let device = try #require(AIBudsSDK.makeStorableDeviceFromDiscovered(advertised))
            try await device.connectAndWait(ConnectParams())
            // What the device reported over GATT, not what it advertised.
            #expect(device.macAddress?.uppercased() == watch.device.identity.mac.uppercased())
            #expect(device.product == .watch)
            #expect(device.peripheral.address.description == "ble://\(bleAddress)")
            let info = try #require(device as? DeviceInfoAPI)
            #expect(try await info.requestQueryBatteryStatus().level.intValue == watch.device.battery().level)
            #expect(log.messages.contains { $0.contains("ATT MTU \(mtu), write WriteValue, notify PropertiesChanged") })
            await device.disconnectAndWait()

            // Connected again: the MAC it reported the first time is the one checked.
            try await device.connectAndWait(ConnectParams())
            #expect(try await info.requestQueryBatteryStatus().level.intValue == watch.device.battery().level)
            await device.disconnectAndWait()

            // Another device at the same BLE address is not taken for this one.
            await standIn.stop()
            standIn = try await StandIn.start(bus: bus, address: bleAddress, alias: "Running Watch", device: glassesAddress, mtu: mtu)
            let other = await #expect(throws: AIBudsError.self) { try await device.connectAndWait(ConnectParams()) }
            #expect(other?.code == .peripheralUnavailable && other?.message.contains("another device") == true, "\(String(describing: other))")
        } catch {
            Issue.record(error)
        }
        await standIn.stop()
        watch.stop()
        glasses.stop()
        try await onOwnThread { bus.stop() }
    }
}
