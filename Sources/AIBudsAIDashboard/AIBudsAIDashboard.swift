import AIBudsLog
import AIBudsNet
import Foundation

/// The AI dashboard: a local web page showing AI records (AI recordings, simultaneous
/// interpretation, AI conversations) with their device, start parameters, timeline, errors,
/// audio and transcripts, live while sessions run.
///
/// Off until ``start(port:host:directory:maximumRecords:logger:)``; it listens on loopback unless
/// another host is given, and every request needs the random access token that ``url`` carries.
public final class AIBudsAIDashboard: Sendable {
    /// Where records are kept.
    public let store: AIRecordStore
    /// The ingestion API sessions report to.
    public let recorder: AIRecorder
    /// The access token (32 random bytes, base64url); every request must present it.
    public let token: String
    private let server: DashboardServer

    /// Starts the dashboard on `host:port` (port 0 picks a free one), keeping records in
    /// `directory` (at most `maximumRecords`); throws a `NetError` when the address cannot be
    /// bound, and what ``AIRecordStore/init(directory:maximumRecords:maximumAge:)`` throws when the
    /// store cannot be opened.
    public static func start(
        port: UInt16 = 0, host: String = "127.0.0.1", directory: URL, maximumRecords: Int = 1000,
        logger: any LogService = NullLogService()
    ) throws -> AIBudsAIDashboard {
        let store = try AIRecordStore(directory: directory, maximumRecords: maximumRecords)
        return try AIBudsAIDashboard(store: store, address: SocketAddress(host: host, port: port), logger: logger)
    }

    /// Serves an existing store on `address`; throws a `NetError` when it cannot be bound.
    public init(store: AIRecordStore, address: SocketAddress, logger: any LogService = NullLogService()) throws {
        self.store = store
        self.recorder = AIRecorder(store: store, logger: logger)
        self.token = Self.makeToken()
        self.server = try DashboardServer(address: address, token: token, store: store, logger: logger)
        LogRedactor.shared.register(token)
        logger.log(.info, "dashboard", "serving on http://\(server.localAddress)")
    }

    /// The address the server listens on (with the port picked when 0 was asked for).
    public var address: SocketAddress { server.localAddress }

    /// The page's address with the access token: open it in a browser (`127.0.0.1` stands for a
    /// wildcard listen address).
    public var url: String {
        var address = server.localAddress
        if address.host == "0.0.0.0" { address.host = "127.0.0.1" }
        if address.host == "::" { address.host = "::1" }
        return "http://\(address)/?token=\(token)"
    }

    /// Stops serving (open pages lose their live updates); the records stay in the store.
    public func stop() {
        server.stop()
    }

    deinit { server.stop() }

    static func makeToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
