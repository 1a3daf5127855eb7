import AIBudsHTTPServer
import AIBudsLog
import AIBudsNet
import AIBudsSync
import Dispatch
import Foundation

/// The dashboard's HTTP/1.1 server, a handler on the project's one HTTP server
/// (`AIBudsHTTPServer`): the page, its JSON API, the audio, and live updates as Server-Sent
/// Events, each request authorized by the access token and addressed to this server's own `Host`.
///
/// Each connection is closed after its answer (a live-update stream stays open until the client
/// or the server leaves, and its slot is freed within a second of the client going). Connections
/// without a valid token wait in the server's bounded pool and never take a serving slot; at most
/// ``maximumLiveStreams`` of the ``maximumConnections`` slots hold live-update streams.
final class DashboardServer: Sendable {
    static let headTimeout: Duration = .seconds(10)
    static let writeTimeout: Duration = .seconds(30)
    static let heartbeat: Duration = .seconds(15)
    static let maximumConnections = 64
    static let maximumLiveStreams = 32

    let token: String
    let routes: DashboardRoutes
    let logger: any LogService
    private let server: HTTPServer
    private let liveStreams = Locked(0)

    init(address: SocketAddress, token: String, store: AIRecordStore, logger: any LogService) throws {
        self.token = token
        self.routes = DashboardRoutes(store: store, token: token)
        self.logger = logger
        // The server's handler reaches this object weakly (the server is this object's).
        let owner = WeakOwner()
        server = HTTPServer(
            HTTPServerConfiguration(address: address, name: "dashboard", maxConnections: Self.maximumConnections, headTimeout: Self.headTimeout),
            logger: logger
        ) { connection in
            owner.value?.serve(connection)
        }
        owner.value = self
        let bound = try server.start()
        boundAddress.withLock { $0 = bound }
    }

    /// Where the server listens (also after it stopped).
    var localAddress: SocketAddress { boundAddress.withLock { $0 } }
    private let boundAddress = Locked(SocketAddress(host: "127.0.0.1", port: 0))

    private final class WeakOwner: @unchecked Sendable {
        // Set once, before the server starts accepting.
        weak var value: DashboardServer?
    }

    var isStopping: Bool { server.isStopping }

    func stop() { server.stop() }

    private func serve(_ served: HTTPServerConnection) {
        let connection = served.connection
        guard let head = served.firstRequest() else { return }
        let request = DashboardRequest(head)
        guard request.method == "GET" || request.method == "HEAD" else {
            send(.text(405, "only GET"), to: connection)
            return
        }
        guard request.isAuthorized(token: token) else {
            server.refusals.log(.info, "dashboard", "refused a request without a valid token from \(served.peer)")
            var response = DashboardResponse.text(401, "unauthorized: open the URL with the access token the dashboard printed")
            response.extraHeaders.append(("WWW-Authenticate", "Bearer realm=\"aibuds-dashboard\""))
            send(response, to: connection)
            return
        }
        guard served.admit() else {
            send(.text(503, "busy: every connection is taken; try again"), to: connection)
            return
        }
        if request.path == "/api/live" {
            let admitted = liveStreams.withLock { count -> Bool in
                guard count < Self.maximumLiveStreams else { return false }
                count += 1
                return true
            }
            guard admitted else {
                send(.text(503, "busy: too many live-update pages are open"), to: connection)
                return
            }
            defer { liveStreams.withLock { $0 -= 1 } }
            streamChanges(to: served)
            return
        }
        var response = routes.answer(request)
        if request.method == "HEAD" { response.body = [] }
        send(response, to: connection)
    }

    private func send(_ response: DashboardResponse, to connection: TCPConnection) {
        try? connection.write(response.serialized(), timeout: Self.writeTimeout)
    }

    /// Server-Sent Events: one `change` event per store change (`{"id":…,"change":…}`, also when
    /// another process changed the store, checked every second), a comment line as heartbeat,
    /// until the client leaves (noticed within a second) or the server stops.
    private func streamChanges(to served: HTTPServerConnection) {
        let connection = served.connection
        let pending = Locked<[AIRecordStore.Change]>([])
        let wake = DispatchSemaphore(value: 0)
        let observer = routes.store.addObserver { change in
            pending.withLock { $0.append(change) }
            wake.signal()
        }
        defer { routes.store.removeObserver(observer) }
        var head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n"
        for (name, value) in DashboardResponse.securityHeaders { head += "\(name): \(value)\r\n" }
        head += "\r\nretry: 1000\n: connected\n\n"
        do {
            try connection.write(Array(head.utf8), timeout: Self.writeTimeout)
            var lastWrite = ContinuousClock.now
            var externalVersion = try? routes.store.externalVersion()
            while !isStopping, !served.peerHasGone() {
                _ = wake.wait(timeout: .now() + 1)
                var changes = pending.withLock { changes in
                    defer { changes.removeAll() }
                    return changes
                }
                // Another process (an app recording sessions) committed to the same store.
                let version = try? routes.store.externalVersion()
                if version != externalVersion {
                    externalVersion = version
                    changes.append(AIRecordStore.Change(id: 0, change: "external"))
                }
                var text = ""
                for change in changes {
                    let data = (try? AIRecordStore.encoder.encode(change)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
                    text += "event: change\ndata: \(data)\n\n"
                }
                if text.isEmpty, ContinuousClock.now - lastWrite > Self.heartbeat { text = ": ping\n\n" }
                guard !text.isEmpty else { continue }
                try connection.write(Array(text.utf8), timeout: Self.writeTimeout)
                lastWrite = .now
            }
        } catch {
            return
        }
    }
}
