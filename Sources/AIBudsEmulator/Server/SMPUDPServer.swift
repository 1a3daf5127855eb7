import AIBudsLog
import AIBudsNet
import AIBudsSync
import Foundation

/// SMP over UDP (one packet per datagram) in front of an ``SMPRequestHandler``, with the link's
/// shaping and injected datagram faults applied in both directions.
///
/// On an unshaped, fault-free link every datagram is handled on the socket's receive queue and
/// answered at once. Otherwise each datagram goes through a `DelayLine`: requests reach the
/// handler at their delivery time, responses leave at theirs, per peer and direction as the
/// ``BLELinkShaper`` computes, lost, duplicated, delayed or reordered as the faults say.
public final class SMPUDPServer: Sendable {
    private struct PeerLink {
        var uplink = BLELinkShaper()
        var downlink = BLELinkShaper()
        var lastUse: ContinuousClock.Instant
    }

    private struct State {
        var socket: UDPSocket?
        var delayLine: DelayLine?
        var peers: [SocketAddress: PeerLink] = [:]
        var faults: DatagramFaults
    }

    /// The most traffic a shaped link holds back before it drops datagrams.
    static let maxQueueing = Duration.seconds(2)

    /// The handler answering the requests.
    public let handler: SMPRequestHandler
    /// The link profile.
    public let link: LinkProfile
    /// The injected faults.
    public let faults: FaultConfiguration
    private let requestedAddress: SocketAddress
    private let origin = ContinuousClock.now
    private let logger: any LogService
    private let state: Locked<State>

    /// Creates a server; nothing is bound until ``start()``.
    public init(handler: SMPRequestHandler, address: SocketAddress, link: LinkProfile = .unlimited,
                faults: FaultConfiguration = FaultConfiguration(), logger: any LogService = NullLogService()) {
        self.handler = handler
        self.requestedAddress = address
        self.link = link
        self.faults = faults
        self.logger = logger
        state = Locked(State(faults: DatagramFaults(faults)))
    }

    deinit { stop() }

    private var isShaped: Bool { link == .ble || faults.disturbsDatagrams }

    /// Binds `address`; a fixed port still held (a run of the same device that just stopped, its
    /// socket not yet closed by the kernel) is tried again for up to 2 s, as a device that resets
    /// binds again, before the failure is reported.
    private static func bind(_ address: SocketAddress, logger: any LogService) throws(EmulatorError) -> UDPSocket {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(2)
        while true {
            do {
                return try UDPSocket(local: address, logger: logger)
            } catch {
                let inUse = (error as? NetError)?.errno == EADDRINUSE
                guard inUse, address.port != 0, clock.now < deadline else {
                    throw EmulatorError(.network, "cannot bind udp://\(address)", underlying: error)
                }
                Thread.sleep(forTimeInterval: 0.05)
            }
        }
    }

    /// Binds the socket and starts serving; returns the bound address (with the port the system
    /// chose when 0 was asked for).
    @discardableResult
    public func start() throws(EmulatorError) -> SocketAddress {
        if let socket = state.withLock({ $0.socket }) { return socket.localAddress }
        let socket = try Self.bind(requestedAddress, logger: logger)
        let delayLine = isShaped ? DelayLine(name: "aibuds-emulator-link-\(socket.localAddress)") : nil
        state.withLock { state in
            state.socket = socket
            state.delayLine = delayLine
        }
        handler.setDeferredSink { [weak self] response, peer in
            guard let self, let address = try? SocketAddress(parsing: peer.id) else { return }
            self.send(response, to: address)
        }
        do {
            try socket.startReceiving(
                onReceive: { [weak self] datagram, sender in self?.receive(datagram, from: sender) },
                onFailure: { [logger] error in logger.log(.error, "emulator", "UDP receive failed: \(error)") })
        } catch {
            stop()
            throw EmulatorError(.network, "cannot receive on udp://\(socket.localAddress)", underlying: error)
        }
        return socket.localAddress
    }

    /// The bound address while serving.
    public var localAddress: SocketAddress? { state.withLock { $0.socket?.localAddress } }

    /// Stops serving and releases the port. Idempotent.
    public func stop() {
        let (socket, delayLine) = state.withLock { state in
            defer {
                state.socket = nil
                state.delayLine = nil
            }
            return (state.socket, state.delayLine)
        }
        delayLine?.stop()
        socket?.close()
    }

    private func receive(_ datagram: Data, from sender: SocketAddress) {
        guard isShaped else {
            for response in handler.handle(datagram, from: EmulatorPeer(sender.description)) {
                transmit(response, to: sender)
            }
            return
        }
        for deadline in plan(datagram.count, peer: sender, uplink: true) {
            schedule(at: deadline) { [weak self] in
                guard let self else { return }
                for response in self.handler.handle(datagram, from: EmulatorPeer(sender.description)) {
                    self.send(response, to: sender)
                }
            }
        }
    }

    /// Sends a response through the link's downlink.
    private func send(_ datagram: Data, to peer: SocketAddress) {
        guard isShaped else {
            transmit(datagram, to: peer)
            return
        }
        for deadline in plan(datagram.count, peer: peer, uplink: false) {
            schedule(at: deadline) { [weak self] in self?.transmit(datagram, to: peer) }
        }
    }

    /// The delivery instants of the copies of one datagram (none when it is lost).
    private func plan(_ size: Int, peer: SocketAddress, uplink: Bool) -> [ContinuousClock.Instant] {
        let now = ContinuousClock.now
        return state.withLock { state in
            let extras = state.faults.plan()
            guard !extras.isEmpty else { return [] }
            var deliveredAt = now
            if link == .ble {
                var peerLink = state.peers[peer] ?? PeerLink(lastUse: now)
                let elapsed = origin.duration(to: now)
                var shaper = uplink ? peerLink.uplink : peerLink.downlink
                let time = shaper.deliveryTime(forDatagramOf: size, at: elapsed)
                // The link buffers at most two seconds of traffic; a flood beyond that is dropped,
                // as a full controller buffer would.
                guard time - elapsed <= Self.maxQueueing else { return [] }
                if uplink { peerLink.uplink = shaper } else { peerLink.downlink = shaper }
                peerLink.lastUse = now
                state.peers[peer] = peerLink
                deliveredAt = origin.advanced(by: time)
                if state.peers.count > 1024 {
                    state.peers = state.peers.filter { now - $0.value.lastUse < .seconds(60) }
                }
            }
            return extras.map { deliveredAt.advanced(by: $0) }
        }
    }

    private func schedule(at deadline: ContinuousClock.Instant, _ action: @escaping @Sendable () -> Void) {
        state.withLock { $0.delayLine }?.schedule(at: deadline, action)
    }

    private func transmit(_ datagram: Data, to peer: SocketAddress) {
        guard let socket = state.withLock({ $0.socket }) else { return }
        do { try socket.send(datagram, to: peer) } catch {
            logger.log(.debug, "emulator", "cannot send to \(peer): \(error)")
        }
    }
}
