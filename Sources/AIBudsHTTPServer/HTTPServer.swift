import AIBudsLog
import AIBudsNet
import AIBudsSync
import Dispatch
import Foundation

/// How an ``HTTPServer`` admits and bounds its connections.
public struct HTTPServerConfiguration: Sendable {
    /// Where to listen; port 0 picks a free port.
    public var address: SocketAddress
    /// The server's name: its log category and its threads' names.
    public var name: String
    /// Authorized connections served at once; a connection over it is answered `503`.
    public var maxConnections: Int
    /// Connections waiting for their first authorized request, in all.
    public var maxPendingConnections: Int
    /// Such connections from one peer address.
    public var maxPendingPerPeer: Int
    /// How long a request head may take: from accepting a connection to its first request, and
    /// from the first byte of each later head to its end.
    public var headTimeout: Duration
    /// Whether every request's `Host` must name this server by a loopback name (`127.0.0.1`,
    /// `localhost`, `[::1]`) or its own address, with its port: a web page that rebinds a name of
    /// its own to 127.0.0.1 is refused.
    public var requiresOwnHost: Bool

    /// A configuration with the project's bounds: 64 serving slots, 128 waiting connections (64
    /// per peer), 10 s for a request head, the `Host` checked.
    public init(
        address: SocketAddress = SocketAddress(host: "127.0.0.1", port: 0), name: String, maxConnections: Int = 64,
        maxPendingConnections: Int = 128, maxPendingPerPeer: Int = 64, headTimeout: Duration = .seconds(10),
        requiresOwnHost: Bool = true
    ) {
        self.address = address
        self.name = name
        self.maxConnections = max(1, maxConnections)
        self.maxPendingConnections = max(1, maxPendingConnections)
        self.maxPendingPerPeer = max(1, maxPendingPerPeer)
        self.headTimeout = headTimeout
        self.requiresOwnHost = requiresOwnHost
    }
}

/// The project's one HTTP/1.1 server: the accept loop, bounded and fair admission, a thread per
/// connection, and a stop that ends them all. Every server of the project (the emulator's data
/// plane, the AI dashboard, the live viewer, the emulated camera's JPEG stream) is a handler on it.
///
/// Slow and unauthenticated peers cannot lock others out: a new connection waits in a bounded pool
/// (``HTTPServerConfiguration/maxPendingConnections``, at most
/// ``HTTPServerConfiguration/maxPendingPerPeer`` from one address; a newcomer over either bound
/// evicts the oldest waiting one) until its handler calls ``HTTPServerConnection/admit()`` after an
/// authorized request; only then does it take one of the serving slots. A waiting connection must
/// send its first head within the head timeout. Refusals are logged through a ``/AIBudsLog/ThrottledLog``.
public final class HTTPServer: Sendable {
    private struct RunState {
        var listener: TCPListener?
        var serving: [ObjectIdentifier: TCPConnection] = [:]
        var pending = PendingConnections()
        var stopping = false
        var allowedHosts: Set<String> = []
    }

    /// The server's bounds.
    public let configuration: HTTPServerConfiguration
    /// Where the server logs (category ``HTTPServerConfiguration/name``).
    public let logger: any LogService
    /// Lines a peer can cause (refusals, bad requests), at most one per 10 s.
    public let refusals: ThrottledLog
    private let handler: @Sendable (HTTPServerConnection) -> Void
    private let state = Locked(RunState())
    private let threads = DispatchGroup()
    private let accepted = Locked(0)

    /// A server whose connections `handler` serves, each on a thread of its own; nothing listens
    /// until ``start()``.
    public init(
        _ configuration: HTTPServerConfiguration, logger: any LogService = NullLogService(),
        handler: @escaping @Sendable (HTTPServerConnection) -> Void
    ) {
        self.configuration = configuration
        self.logger = logger
        refusals = ThrottledLog(logger: logger)
        self.handler = handler
    }

    deinit { stop() }

    /// Binds and starts accepting; returns the bound address. Calling it again while running
    /// returns the same address.
    @discardableResult
    public func start() throws -> SocketAddress {
        if let listener = state.withLock({ $0.listener }) { return listener.localAddress }
        let listener = try TCPListener(binding: configuration.address)
        let port = listener.localAddress.port
        let hosts = Set(["127.0.0.1", "localhost", "[::1]", configuration.address.host].map { "\($0):\(port)" })
        state.withLock {
            $0.listener = listener
            $0.stopping = false
            $0.allowedHosts = hosts
        }
        threads.enter()
        let thread = Thread { [self] in
            acceptLoop(listener)
            threads.leave()
        }
        thread.name = "\(configuration.name)-accept"
        thread.start()
        return listener.localAddress
    }

    /// The bound address while running.
    public var localAddress: SocketAddress? { state.withLock { $0.listener?.localAddress } }

    /// Whether ``stop()`` was called.
    public var isStopping: Bool { state.withLock { $0.stopping } }

    /// Connections accepted since the server was made.
    public var acceptedConnections: Int { accepted.withLock { $0 } }

    /// Stops accepting, shuts every connection down and waits (up to 5 s) for their threads.
    public func stop() {
        let (listener, connections) = state.withLock { state -> (TCPListener?, [TCPConnection]) in
            state.stopping = true
            defer { state.listener = nil }
            return (state.listener, Array(state.serving.values) + state.pending.all)
        }
        guard let listener else { return }
        listener.shutdown()
        for connection in connections { connection.shutdown() }
        if threads.wait(timeout: .now() + 5) == .timedOut {
            logger.log(.warning, configuration.name, "connection threads did not finish within 5 s of stop")
        }
        listener.close()
    }

    /// Shuts down every connection (the listener stays): a device whose link dropped.
    public func dropConnections() {
        for connection in state.withLock({ Array($0.serving.values) + $0.pending.all }) { connection.shutdown() }
    }

    // MARK: - For connections

    func admit(_ connection: TCPConnection) -> Bool {
        state.withLock { state in
            guard state.pending.remove(connection), !state.stopping, state.serving.count < configuration.maxConnections else { return false }
            state.serving[ObjectIdentifier(connection)] = connection
            return true
        }
    }

    func allows(host: String?) -> Bool {
        guard configuration.requiresOwnHost else { return true }
        guard let host else { return false }
        return state.withLock { $0.allowedHosts.contains(host.lowercased()) }
    }

    private func acceptLoop(_ listener: TCPListener) {
        while true {
            let connection: TCPConnection
            do {
                guard let next = try listener.accept(timeout: nil) else { continue }
                connection = next
            } catch let error as NetError where error.code == .acceptFailed && !isStopping {
                // Out of descriptors or memory for a moment: keep serving the others.
                logger.log(.error, configuration.name, "accept failed: \(error)")
                Thread.sleep(forTimeInterval: 0.01)
                continue
            } catch {
                if !isStopping { logger.log(.error, configuration.name, "accept failed: \(error)") }
                return
            }
            accepted.withLock { $0 += 1 }
            let peer = connection.remoteAddress?.host ?? ""
            let (admitted, evicted) = state.withLock { state -> (Bool, TCPConnection?) in
                guard !state.stopping else { return (false, nil) }
                return (true, state.pending.add(
                    connection, peer: peer, limit: configuration.maxPendingConnections, perPeer: configuration.maxPendingPerPeer))
            }
            if let evicted {
                refusals.log(.debug, configuration.name, "too many connections wait for a request: closing the oldest of \(peer)")
                evicted.shutdown()
            }
            guard admitted else {
                connection.close()
                continue
            }
            let served = HTTPServerConnection(connection, peer: peer, server: self)
            threads.enter()
            let thread = Thread { [self] in
                handler(served)
                state.withLock { state in
                    _ = state.serving.removeValue(forKey: ObjectIdentifier(connection))
                    _ = state.pending.remove(connection)
                }
                connection.close()
                threads.leave()
            }
            thread.name = "\(configuration.name)-connection"
            thread.start()
        }
    }
}
