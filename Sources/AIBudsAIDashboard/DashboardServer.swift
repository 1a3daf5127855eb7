import AIBudsLog
import AIBudsNet
import AIBudsSync
import AIBudsWire
import Dispatch
import Foundation

/// The dashboard's HTTP/1.1 server: the page, its JSON API, the audio, and live updates as
/// Server-Sent Events, each request authorized by the access token.
///
/// One thread accepts; each connection gets a thread of its own and is closed after its answer
/// (a live-update stream stays open until the client or the server leaves). At most
/// `maximumConnections` are served at once; a request head must arrive within 10 s.
final class DashboardServer: Sendable {
    static let headTimeout: Duration = .seconds(10)
    static let writeTimeout: Duration = .seconds(30)
    static let heartbeat: Duration = .seconds(15)
    static let maximumConnections = 64

    private struct RunState {
        var listener: TCPListener?
        var connections: [ObjectIdentifier: TCPConnection] = [:]
        var stopping = false
    }

    let token: String
    let routes: DashboardRoutes
    let logger: any LogService
    /// Refusals, at most one line per 10 s: any peer can cause them.
    private let refusals: ThrottledLog
    let localAddress: SocketAddress
    private let state = Locked(RunState())
    private let threads = DispatchGroup()

    init(address: SocketAddress, token: String, store: AIRecordStore, logger: any LogService) throws {
        let listener = try TCPListener(binding: address)
        self.token = token
        self.routes = DashboardRoutes(store: store, token: token)
        self.logger = logger
        refusals = ThrottledLog(logger: logger)
        self.localAddress = listener.localAddress
        state.withLock { $0.listener = listener }
        threads.enter()
        let thread = Thread { [self] in
            acceptLoop(listener)
            threads.leave()
        }
        thread.name = "dashboard-accept"
        thread.start()
    }

    var isStopping: Bool { state.withLock { $0.stopping } }

    func stop() {
        let (listener, connections) = state.withLock { state -> (TCPListener?, [TCPConnection]) in
            state.stopping = true
            defer { state.listener = nil }
            return (state.listener, Array(state.connections.values))
        }
        guard let listener else { return }
        listener.shutdown()
        for connection in connections { connection.shutdown() }
        if threads.wait(timeout: .now() + 5) == .timedOut {
            logger.log(.warning, "dashboard", "connection threads did not finish within 5 s of stop")
        }
        listener.close()
    }

    private func acceptLoop(_ listener: TCPListener) {
        while !isStopping {
            let connection: TCPConnection
            do {
                guard let accepted = try listener.accept(timeout: .seconds(1)) else { continue }
                connection = accepted
            } catch {
                if !isStopping { logger.log(.warning, "dashboard", "accept failed: \(error)") }
                return
            }
            let admitted = state.withLock { state -> Bool in
                guard !state.stopping, state.connections.count < Self.maximumConnections else { return false }
                state.connections[ObjectIdentifier(connection)] = connection
                return true
            }
            guard admitted else {
                try? connection.write(DashboardResponse.text(503, "busy").serialized(), timeout: .seconds(1))
                connection.close()
                continue
            }
            threads.enter()
            let thread = Thread { [self] in
                serve(connection)
                state.withLock { _ = $0.connections.removeValue(forKey: ObjectIdentifier(connection)) }
                connection.close()
                threads.leave()
            }
            thread.name = "dashboard-connection"
            thread.start()
        }
    }

    private func serve(_ connection: TCPConnection) {
        guard let head = readHead(connection) else { return }
        let request = DashboardRequest(head)
        guard request.method == "GET" || request.method == "HEAD" else {
            send(.text(405, "only GET"), to: connection)
            return
        }
        guard request.isAuthorized(token: token) else {
            refusals.log(.info, "dashboard", "refused a request without a valid token from \(connection.remoteAddress.map(String.init(describing:)) ?? "?")")
            var response = DashboardResponse.text(401, "unauthorized: open the URL with the access token the dashboard printed")
            response.extraHeaders.append(("WWW-Authenticate", "Bearer realm=\"aibuds-dashboard\""))
            send(response, to: connection)
            return
        }
        if request.path == "/api/live" {
            streamChanges(to: connection)
            return
        }
        var response = routes.answer(request)
        if request.method == "HEAD" { response.body = [] }
        send(response, to: connection)
    }

    private func send(_ response: DashboardResponse, to connection: TCPConnection) {
        try? connection.write(response.serialized(), timeout: Self.writeTimeout)
    }

    private func readHead(_ connection: TCPConnection) -> HTTPRequestHead? {
        let limits = HTTPHeadLimits.default
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: limits.maxHeadBytes, alignment: 16)
        defer { buffer.deallocate() }
        var filled = 0
        let deadline = ContinuousClock.now + Self.headTimeout
        do {
            while true {
                if let length = try HTTPHeadParser.headLength(in: UnsafeRawBufferPointer(rebasing: buffer[0..<filled]), limits: limits) {
                    return try HTTPRequestHead(parsing: UnsafeRawBufferPointer(rebasing: buffer[0..<length]), limits: limits)
                }
                let remaining = deadline - .now
                guard remaining > .zero, filled < buffer.count else { return nil }
                let count = try connection.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]), timeout: remaining)
                guard count > 0 else { return nil }
                filled += count
            }
        } catch let error as HTTPError {
            send(.text(400, "bad request: \(error.code.rawValue)"), to: connection)
            return nil
        } catch {
            return nil
        }
    }

    /// Server-Sent Events: one `change` event per store change (`{"id":…,"change":…}`, also when
    /// another process changed the store, checked every second), a comment line as heartbeat,
    /// until the client leaves or the server stops.
    private func streamChanges(to connection: TCPConnection) {
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
            while !isStopping {
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
