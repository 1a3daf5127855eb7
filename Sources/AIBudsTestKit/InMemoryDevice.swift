import AIBudsEmulator
import AIBudsLog
import Foundation

extension ManualClock: EmulatorClock {
    /// The manual time since the clock's start, as the emulator reads it.
    public var uptime: Duration { now.offset }
}

/// An emulated device without sockets: the emulator's media store, device and SMP handler, reached
/// through `InMemoryTransport`s on a `ManualClock`, so that client tests are deterministic.
public struct InMemoryDevice: Sendable {
    /// The emulated device.
    public let device: EmulatedDevice
    /// Its SMP handler.
    public let handler: SMPRequestHandler
    /// The clock both the device and the links run on.
    public let clock: ManualClock

    /// Creates a device of `profile` holding `files`, with SMP packets of at most `mtu` bytes.
    public init(
        profile: DeviceProfile = .glasses, files: [MediaSeed], mtu: Int = 1024, clock: ManualClock = ManualClock(),
        logger: any LogService = NullLogService()
    ) throws {
        let store = try MediaStore(seeds: files, capacity: profile.capacity, logger: logger)
        device = try EmulatedDevice(profile: profile, name: profile.model, store: store, mtu: mtu, clock: clock,
                                    wallClockOrigin: Date(timeIntervalSince1970: 1_700_000_000), logger: logger)
        handler = SMPRequestHandler(device: device, clock: clock, logger: logger)
        self.clock = clock
    }

    /// A transport to the device over `link`; responses the device sends later (long-polls) arrive
    /// on it too. One transport per device at a time.
    public func connect(link: InMemoryLink = InMemoryLink(), mtu: Int = 1024, peer: String = "in-memory") -> InMemoryTransport {
        let handler = self.handler
        let emulatorPeer = EmulatorPeer(peer)
        let transport = InMemoryTransport(mtu: mtu, link: link, clock: clock) { datagram in
            handler.handle(datagram, from: emulatorPeer)
        }
        handler.setDeferredSink { [weak transport] datagram, _ in transport?.deliverFromServer(datagram) }
        return transport
    }

    /// Stops the handler and the device.
    public func close() {
        handler.close()
        device.close()
    }
}
