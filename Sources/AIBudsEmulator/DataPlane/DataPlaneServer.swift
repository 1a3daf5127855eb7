import AIBudsHTTPServer
import AIBudsLog
import AIBudsNet
import AIBudsSync
import Dispatch
import Foundation
import Synchronization

/// The device's HTTP/1.1 data plane (docs/protocol.md §4): serves catalog files at
/// `GET /media/<name>` to holders of the session's bearer token, shaped by a link profile and
/// disturbed by injected faults.
///
/// A handler on the project's one HTTP server (`AIBudsHTTPServer`): each connection gets its own
/// thread that reads requests and answers them with blocking `sendfile(2)`. Connections are few (a
/// client opens one per parallel file), so this is simpler than an event loop and measured as fast
/// (see docs/benchmarks.md).
///
/// Slow and unauthenticated clients cannot lock others out (docs/reliability.md): the server keeps
/// a new connection in its bounded waiting pool (`maxPendingConnections`, at most
/// `maxPendingPerPeer` from one address) until it sends a request with the bearer token within
/// `headTimeout`; only then does it take one of the `maxConnections` serving slots. Every later
/// request head must be whole within `headTimeout` of its first byte. The `Host` is not checked:
/// clients reach a device by its address on the hotspot, and the token is the guard.
public final class DataPlaneServer: Sendable {
    /// Counters of what the server did since it was created.
    public struct Statistics: Hashable, Sendable {
        /// Connections accepted.
        public var connections: Int
        /// Requests answered (every status).
        public var requests: Int
        /// The response body bytes written to clients, heads excluded.
        public var bodyBytesSent: Int64
    }

    private struct RunState {
        var server: HTTPServer?
        var baseURL: String?
        var stopping = false
    }

    /// The most authorized connections served at once; more are answered `503` and closed.
    public let maxConnections: Int
    /// The most connections waiting for their first authorized request.
    public let maxPendingConnections: Int
    /// The most connections from one address waiting for their first authorized request.
    public let maxPendingPerPeer: Int
    /// How long a request head may take: from accepting a connection to its first authorized
    /// request, and from the first byte of each later head to its end.
    public let headTimeout: Duration
    /// The link shaping applied to every response.
    public let shaping: DataPlaneShaping
    let catalog: any DataPlaneCatalog
    let logger: any LogService
    let pacer: LinkPacer?
    private let requestedAddress: SocketAddress
    private let tokenBox: Locked<String>
    private let faultsBox = Locked(DataPlaneFaults.none)
    private let state = Locked(RunState())
    private let connectionCount = Atomic<Int>(0)
    private let requestCount = Atomic<Int>(0)
    private let bytesSent = Atomic<Int64>(0)

    /// Creates a server; nothing listens until `start()`.
    /// - Parameters:
    ///   - catalog: where files are found by device name.
    ///   - token: the bearer token every request must carry.
    ///   - address: the loopback address to bind; port 0 picks a free port.
    ///   - shaping: the link profile (`.unlimited` or `.wifi`).
    ///   - maxConnections: authorized connections served at once.
    ///   - maxPendingConnections: connections waiting for their first authorized request.
    ///   - maxPendingPerPeer: such connections from one address.
    ///   - headTimeout: the time a request head may take (see ``headTimeout``).
    ///   - logger: where the server logs (category `dataplane`).
    public init(
        catalog: some DataPlaneCatalog, token: String, address: SocketAddress = SocketAddress(host: "127.0.0.1", port: 0),
        shaping: DataPlaneShaping = .unlimited, maxConnections: Int = 64, maxPendingConnections: Int = 128,
        maxPendingPerPeer: Int = 64, headTimeout: Duration = .seconds(10), logger: any LogService = NullLogService()
    ) {
        self.catalog = catalog
        self.tokenBox = Locked(token)
        self.requestedAddress = address
        self.shaping = shaping
        self.maxConnections = maxConnections
        self.maxPendingConnections = max(1, maxPendingConnections)
        self.maxPendingPerPeer = max(1, maxPendingPerPeer)
        self.headTimeout = headTimeout
        self.logger = logger
        self.pacer = shaping.bytesPerSecond.map(LinkPacer.init(bytesPerSecond:))
    }

    deinit { stop() }

    /// Binds and starts serving; returns the base URL `http://HOST:PORT`. Calling it again while
    /// running returns the same URL.
    @discardableResult
    public func start() throws -> String {
        let existing = state.withLock { $0.baseURL }
        if let existing { return existing }
        let server = HTTPServer(
            HTTPServerConfiguration(
                address: requestedAddress, name: "dataplane", maxConnections: maxConnections,
                maxPendingConnections: maxPendingConnections, maxPendingPerPeer: maxPendingPerPeer, headTimeout: headTimeout,
                requiresOwnHost: false),
            logger: logger
        ) { [self] connection in
            connectionCount.add(1, ordering: .relaxed)
            DataPlaneConnectionLoop(server: self, connection: connection).run()
        }
        let address = try server.start()
        let baseURL = "http://\(address)"
        state.withLock {
            $0.server = server
            $0.baseURL = baseURL
            $0.stopping = false
        }
        logger.log(.info, "dataplane", "serving on \(baseURL) (\(shaping.isUnlimited ? "unlimited" : "shaped"))")
        return baseURL
    }

    /// The base URL while running, else nil.
    public var baseURL: String? { state.withLock { $0.baseURL } }

    /// Stops accepting, closes every connection and waits (up to 5 s) for their threads.
    public func stop() {
        let server = state.withLock { state -> HTTPServer? in
            state.stopping = true
            defer {
                state.server = nil
                state.baseURL = nil
            }
            return state.server
        }
        guard let server else { return }
        server.stop()
        logger.log(.info, "dataplane", "stopped")
    }

    /// Closes every open connection (their responses end where they are); the server goes on
    /// accepting: a device that cancelled the transfers in flight.
    public func dropConnections() {
        state.withLock { $0.server }?.dropConnections()
        logger.log(.info, "dataplane", "dropped every connection (transfer cancelled)")
    }

    /// The bearer token requests must carry.
    public var token: String { tokenBox.withLock { $0 } }

    /// Replaces the bearer token (a new session); requests with the old one get `401`.
    public func setToken(_ token: String) { tokenBox.withLock { $0 = token } }

    /// The faults currently injected.
    public var faults: DataPlaneFaults { faultsBox.withLock { $0 } }

    /// Replaces the injected faults.
    public func setFaults(_ faults: DataPlaneFaults) { faultsBox.withLock { $0 = faults } }

    /// What the server has done so far.
    public var statistics: Statistics {
        Statistics(
            connections: connectionCount.load(ordering: .relaxed), requests: requestCount.load(ordering: .relaxed),
            bodyBytesSent: bytesSent.load(ordering: .relaxed))
    }

    // MARK: - Internals used by the connection threads

    var isStopping: Bool { state.withLock { $0.stopping } }

    /// Takes the one-shot faults that apply to a body covering `range`: a stall and a close
    /// offset, each at most once.
    func takeBodyFaults(for range: Range<Int64>) -> (stall: DataPlaneFaults.Stall?, closeAt: Int64?) {
        faultsBox.withLock { faults in
            var taken: (stall: DataPlaneFaults.Stall?, closeAt: Int64?) = (nil, nil)
            if let stall = faults.stall, range.lowerBound < stall.atByte, stall.atByte < range.upperBound {
                taken.stall = stall
                faults.stall = nil
            }
            if let closeAt = faults.closeAtByte, range.lowerBound < closeAt, closeAt < range.upperBound {
                taken.closeAt = closeAt
                faults.closeAtByte = nil
            }
            return taken
        }
    }

    /// Takes one of the pending `500` faults, if any.
    func takeInjectedFailure() -> Bool {
        faultsBox.withLock { faults in
            guard faults.failNextRequests > 0 else { return false }
            faults.failNextRequests -= 1
            return true
        }
    }

    func countRequest() { requestCount.add(1, ordering: .relaxed) }

    func countBodyBytes(_ count: Int64) { bytesSent.add(count, ordering: .relaxed) }

    /// Sleeps for `duration` in short slices, returning early when the server stops.
    func pause(_ duration: Duration) {
        let end = ContinuousClock.now + duration
        while !isStopping {
            let remaining = end - ContinuousClock.now
            guard remaining > .zero else { return }
            let slice = min(remaining, .milliseconds(20))
            let (seconds, attoseconds) = slice.components
            var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
            _ = nanosleep(&request, nil)
        }
    }
}
