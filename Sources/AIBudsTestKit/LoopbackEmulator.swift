import AIBudsEmulator
import AIBudsNet
import AIBudsWire
import Foundation

/// A real emulator (UDP server and all) on a free loopback port, holding the given files, for
/// tests over real sockets. Stop it when done.
public final class LoopbackEmulator: Sendable {
    /// The running emulator.
    public let emulator: Emulator
    /// Its SMP address.
    public let address: SocketAddress

    /// Starts an emulator of `profile` holding `files` on `127.0.0.1:0` with `link` and `faults`,
    /// without a discovery announcement.
    public init(
        files: [MediaSeed], profile: DeviceProfile.Kind = .glasses, link: LinkProfile = .unlimited,
        faults: FaultConfiguration = FaultConfiguration()
    ) throws {
        var configuration = EmulatorConfiguration()
        configuration.profile = profile
        configuration.listen = SocketAddress(host: "127.0.0.1", port: 0)
        configuration.mediaSeeds = files
        configuration.link = link
        configuration.faults = faults
        configuration.announce = false
        emulator = try Emulator(configuration: configuration)
        address = try emulator.start()
    }

    /// The bytes of a device file, read from the emulator's store.
    public func content(of name: String) throws -> Data {
        let store = emulator.device.store
        guard let object = store.object(named: MediaFileName(name)) else {
            throw EmulatorError(.notFound, "no file named \(name)")
        }
        return try store.read(object, offset: 0, count: Int(object.size))
    }

    /// Stops serving and closes the emulated device; the address stops answering.
    public func stop() {
        emulator.stop()
    }
}
