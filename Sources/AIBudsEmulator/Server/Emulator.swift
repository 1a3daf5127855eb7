#if canImport(Glibc)
import AIBudsSync
import Glibc
#endif
import AIBudsLog
import AIBudsNet
import AIBudsWire
import Dispatch
import Foundation

/// One running emulated device: media store, device state, SMP handler, UDP server, data plane
/// and discovery announcement, put together from an ``EmulatorConfiguration``.
///
/// ```swift
/// let emulator = try Emulator(configuration: configuration)
/// let address = try emulator.start()     // bound, announced
/// await Emulator.waitForTerminationSignal()
/// emulator.stop()                        // announcement removed, sockets closed
/// ```
public final class Emulator: Sendable {
    /// The configuration it runs.
    public let configuration: EmulatorConfiguration
    /// The emulated device: its state, media store and data plane, which the handler serves.
    public let device: EmulatedDevice
    /// The SMP handler (transport-independent; tests may drive it directly).
    public let handler: SMPRequestHandler
    /// The UDP server.
    public let server: SMPUDPServer
    /// The transfer-mode data plane.
    public let dataPlane: HTTPTransferDataPlane
    let logger: any LogService
    private let announcer = Locked<DiscoveryAnnouncer?>(nil)
    /// The BlueZ stand-in while the device is served over D-Bus (Emulator+BlueZ.swift).
    let bluez = Locked<BlueZStandIn?>(nil)

    /// Builds the emulator (reads the media folder or manifest and the state folder); nothing is
    /// bound until ``start()``.
    ///
    /// `liveStream` is the camera's live stream server (module AIBudsLiveCamera), served by a
    /// profile with a camera; without one the device has no Live group.
    public init(configuration: EmulatorConfiguration, clock: any EmulatorClock = SystemEmulatorClock(),
                liveStream: (any LiveStreamService)? = nil,
                logger: any LogService = NullLogService()) throws(EmulatorError) {
        self.configuration = configuration
        self.logger = logger
        let profile = DeviceProfile.named(configuration.profile)
        if let stateDirectory = configuration.stateDirectory {
            do { try FileManager.default.createDirectory(at: stateDirectory, withIntermediateDirectories: true) } catch {
                throw EmulatorError(.io, "cannot create the state folder \(stateDirectory.path)", underlying: error)
            }
        }
        let store = try MediaStore(seeds: try configuration.seeds(), capacity: profile.capacity,
                                   stateDirectory: configuration.stateDirectory, logger: logger)
        dataPlane = HTTPTransferDataPlane(host: configuration.listen.host, shaping: configuration.link.dataPlaneShaping,
                                          faults: configuration.faults.http, logger: logger)
        device = try EmulatedDevice(
            profile: profile, name: configuration.deviceName, store: store, mtu: configuration.link.mtu,
            maxListResponse: configuration.link.maxListResponse, clock: clock,
            stateDirectory: configuration.stateDirectory, dataPlane: profile.hasHotspot ? dataPlane : nil,
            hotspotDelay: configuration.faults.slowHotspot, fixedToken: configuration.token, lensProfile: configuration.lensProfile,
            firmwareFaults: configuration.faults.firmware,
            audio: try EmulatedAudioIO.load(microphone: configuration.microphoneFile, speakerOut: configuration.speakerOut),
            liveStream: liveStream, logger: logger)
        handler = SMPRequestHandler(device: device, clock: clock, errorRate: configuration.faults.error,
                                    refusals: configuration.faults.refusals, faultSeed: configuration.faults.seed, logger: logger)
        server = SMPUDPServer(handler: handler, address: configuration.listen, link: configuration.link,
                              faults: configuration.faults, logger: logger)
    }

    /// Binds the SMP socket, opens the hotspot when asked, starts periodic recordings and the wearer's
    /// script, and writes
    /// the discovery announcement; returns the bound address.
    @discardableResult
    public func start() throws(EmulatorError) -> SocketAddress {
        let address = try server.start()
        do {
            if configuration.hotspotOpen {
                try device.openHotspotNow(ssid: "\(configuration.deviceName) transfer", password: "aibuds-transfer")
            }
            if let interval = configuration.recordEvery { device.startPeriodicRecordings(every: interval) }
            if let script = configuration.script { device.run(script) }
            if configuration.listsDigests { device.store.startIndexingDigests() }
            if configuration.announce {
                let announcement = DiscoveryAnnouncement(
                    name: device.identity.name, address: "udp://\(address)", product: device.profile.product.rawValue,
                    mac: device.identity.mac, pid: getpid(), rssi: device.profile.rssi)
                let directory = configuration.discoveryDirectory ?? DiscoveryAnnouncement.directory()
                let written = try DiscoveryAnnouncer(announcement, port: address.port, directory: directory)
                announcer.withLock { $0 = written }
            }
        } catch {
            stop()
            throw error
        }
        logger.log(.info, "emulator", "\(configuration.profile.rawValue) '\(device.identity.name)' on udp://\(address)")
        return address
    }

    /// The discovery announcement file, while announced.
    public var announcementFile: URL? { announcer.withLock { $0?.url } }

    /// Removes the announcement, stops serving and closes the device. Idempotent.
    public func stop() {
        announcer.withLock { announcer in
            defer { announcer = nil }
            return announcer
        }?.remove()
        server.stop()
        bluez.withLock { bluez in
            defer { bluez = nil }
            return bluez
        }?.stop()
        handler.close()
        device.close()
        device.store.stopIndexingDigests()
    }

    /// Suspends until the process receives SIGINT or SIGTERM (which no longer end the process).
    public static func waitForTerminationSignal() async {
        let queue = DispatchQueue(label: "aibuds.emulator.signals")
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumed = Locked(false)
            let sources = [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
                SignalWatch.watch(number, queue: queue) {
                    let first = resumed.withLock { done in
                        defer { done = true }
                        return !done
                    }
                    if first { continuation.resume() }
                }
            }
            // The sources must outlive this call: the process keeps them for good.
            _ = Unmanaged.passRetained(SignalSources(sources))
        }
    }
}

/// Signal sources kept alive for the rest of the process.
private final class SignalSources: @unchecked Sendable {
    // Set once at creation and never changed.
    let sources: [any DispatchSourceSignal]

    init(_ sources: [any DispatchSourceSignal]) { self.sources = sources }
}
