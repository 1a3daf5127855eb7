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

/// Starts an emulator whose SMP listens on a loopback host of its own (127.64.0.0 to 127.127.255.255,
/// picked at random) at the fixed `port`, for tools that take a host but not a port (smpmgr's UDP
/// transport always uses 1337). A host whose port another program holds is skipped for another,
/// up to `attempts` times; `adjust` sets the rest of the configuration. Returns the emulator and the host.
public func startEmulatorOnOwnLoopbackHost(
    port: UInt16, attempts: Int = 20, _ adjust: (inout EmulatorConfiguration) -> Void = { _ in }
) throws -> (emulator: Emulator, host: String) {
    var lastError: EmulatorError?
    for _ in 0..<attempts {
        let host = "127.\(Int.random(in: 64...127)).\(Int.random(in: 0...255)).\(Int.random(in: 1...254))"
        var configuration = EmulatorConfiguration()
        adjust(&configuration)
        configuration.listen = SocketAddress(host: host, port: port)
        switch startedEmulator(configuration) {
        case .success(let emulator): return (emulator, host)
        case .failure(let error) where error.code == .network: lastError = error
        case .failure(let error): throw error
        }
    }
    throw lastError ?? EmulatorError(.network, "no free loopback host for port \(port)")
}

/// An emulator started with `configuration`, or why not.
private func startedEmulator(_ configuration: EmulatorConfiguration) -> Result<Emulator, EmulatorError> {
    do {
        let emulator = try Emulator(configuration: configuration)
        _ = try emulator.start()
        return .success(emulator)
    } catch {
        return .failure(error)
    }
}
