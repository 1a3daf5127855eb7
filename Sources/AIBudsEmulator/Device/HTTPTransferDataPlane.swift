import AIBudsLog
import AIBudsNet
import AIBudsSync

/// The real transfer-mode data plane: a ``DataPlaneServer`` on the device's address (a fresh port
/// per transfer session), serving the media store with the session's token.
public final class HTTPTransferDataPlane: TransferDataPlane {
    private let host: String
    private let shaping: DataPlaneShaping
    private let faults: Locked<DataPlaneFaults>
    private let logger: any LogService
    private let server = Locked<DataPlaneServer?>(nil)

    /// Creates a data plane that binds `host` (port chosen per session) with the given shaping
    /// and injected faults.
    public init(host: String, shaping: DataPlaneShaping = .unlimited, faults: DataPlaneFaults = .none,
                logger: any LogService = NullLogService()) {
        self.host = host
        self.shaping = shaping
        self.faults = Locked(faults)
        self.logger = logger
    }

    /// Starts a server for `store` and `token`; returns its base URL.
    public func start(store: MediaStore, token: String) throws -> String {
        stop()
        let server = DataPlaneServer(catalog: store, token: token, address: SocketAddress(host: host, port: 0),
                                     shaping: shaping, logger: logger)
        server.setFaults(faults.withLock { $0 })
        let baseURL = try server.start()
        self.server.withLock { $0 = server }
        return baseURL
    }

    /// Replaces the faults that the servers of later transfer sessions start with (the current
    /// session's server keeps its own; see `currentServer`).
    public func setFaults(_ faults: DataPlaneFaults) { self.faults.withLock { $0 = faults } }

    /// Stops the server; its token is void.
    public func stop() {
        server.withLock { server in
            defer { server = nil }
            return server
        }?.stop()
    }

    /// Closes the running server's connections (a cancelled transfer); it goes on accepting.
    public func dropConnections() { currentServer?.dropConnections() }

    /// The running server, for tests (statistics, faults).
    public var currentServer: DataPlaneServer? { server.withLock { $0 } }
}
