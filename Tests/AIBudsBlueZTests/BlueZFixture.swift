import AIBudsEmulator
import AIBudsNet
import AIBudsTestKit
import AIBudsWire
import Foundation
import Testing

/// The built `aibuds`, beside the test bundle.
let aibudsBinary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("aibuds")

/// A private dbus-daemon with an emulated device behind the emulator's BlueZ stand-in on it.
final class BlueZFixture: Sendable {
    let bus: PrivateBus
    let emulator: Emulator
    let standIn: BlueZStandIn

    private init(bus: PrivateBus, emulator: Emulator, standIn: BlueZStandIn) {
        self.bus = bus
        self.emulator = emulator
        self.standIn = standIn
    }

    /// Starts the bus (off Swift concurrency's threads) and a device of `profile` holding `files`.
    static func start(
        profile: DeviceProfile.Kind = .glasses, files: [MediaSeed]? = nil, link: LinkProfile = .unlimited,
        options: BlueZStandIn.Options = BlueZStandIn.Options()
    ) async throws -> BlueZFixture {
        let bus = try await onOwnThread { try PrivateBus() }
        var configuration = EmulatorConfiguration()
        configuration.profile = profile
        configuration.listen = SocketAddress(host: "127.0.0.1", port: 0)
        configuration.mediaSeeds = files
        configuration.link = link
        configuration.announce = false
        do {
            let emulator = try Emulator(configuration: configuration)
            let standIn = try await emulator.startBlueZ(bus: bus.address, options: options)
            return BlueZFixture(bus: bus, emulator: emulator, standIn: standIn)
        } catch {
            try? await onOwnThread { bus.stop() }
            throw error
        }
    }

    /// The device's address as the SDK names it.
    var deviceAddress: String { "ble://\(standIn.address)" }

    /// The bytes of a device file.
    func content(of name: String) throws -> Data {
        let store = emulator.device.store
        guard let object = store.object(named: MediaFileName(name)) else { throw EmulatorError(.notFound, name) }
        return try store.read(object, offset: 0, count: Int(object.size))
    }

    /// Stops the emulator and the bus.
    func stop() async {
        emulator.stop()
        let bus = self.bus
        try? await onOwnThread { bus.stop() }
    }

    /// Runs `aibuds` with this bus as the system bus.
    func aibuds(_ arguments: [String]) async throws -> ProgramResult {
        try await runProgram(aibudsBinary, arguments, environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address])
    }
}
