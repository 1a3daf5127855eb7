import AIBudsNet
import AIBudsHTTPWire
import Foundation

/// One accepted connection as its handler sees it: the socket, the head reader, admission to a
/// serving slot, the `Host` check and plain answers.
public final class HTTPServerConnection: @unchecked Sendable {
    /// The socket.
    public let connection: TCPConnection
    /// The peer's address (its host), for per-peer bounds and logs.
    public let peer: String
    /// The accept's instant: the first head is due within the head timeout of it.
    public let acceptedAt: ContinuousClock.Instant
    /// The server it belongs to.
    public let server: HTTPServer
    /// Its request heads, read with the server's limits. Used by the connection's thread only.
    public let reader: HTTPHeadReader

    init(_ connection: TCPConnection, peer: String, server: HTTPServer) {
        self.connection = connection
        self.peer = peer
        self.server = server
        acceptedAt = .now
        reader = HTTPHeadReader(connection)
    }

    /// The first request head, due within the head timeout of the accept. Nothing (the peer
    /// closed), a late head (answered `408`) or a malformed one (answered `400`, `431` or `505`)
    /// is nil; a request whose `Host` does not name this server (when the server checks it) is
    /// answered `421` and is nil too.
    public func firstRequest() -> HTTPRequestHead? {
        do {
            let head = try reader.next(
                deadline: acceptedAt + server.configuration.headTimeout, idle: server.configuration.headTimeout,
                headTimeout: server.configuration.headTimeout)
            guard server.allows(host: head.headers["Host"]) else {
                server.refusals.log(.info, server.configuration.name, "refused a request for another host from \(peer)")
                respond(421, "this server answers to its own address only")
                return nil
            }
            return head
        } catch HTTPHeadReader.End.timedOut {
            headTimedOut()
        } catch let error as HTTPError {
            server.refusals.log(.debug, server.configuration.name, "bad request from \(peer): \(error.code.rawValue)")
            respond(HTTPHeadReader.status(for: error), "bad request: \(error.code.rawValue)")
        } catch {}
        return nil
    }

    /// Answers `408` without waiting for a peer that does not read.
    public func headTimedOut() {
        server.refusals.log(.debug, server.configuration.name, "a request head from \(peer) took longer than \(server.configuration.headTimeout)")
        try? connection.write(Array("HTTP/1.1 408 Request Timeout\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8), timeout: .zero)
    }

    /// Whether `head` names this server in its `Host` (always true when the server does not check).
    public func hostIsAllowed(_ head: HTTPRequestHead) -> Bool { server.allows(host: head.headers["Host"]) }

    /// Takes a serving slot after an authorized request; false (answer `503`) when all are taken
    /// or the server stops. Call it once.
    public func admit() -> Bool { server.admit(connection) }

    /// Answers a whole response with `body` and `Connection: close` (the connection ends after it).
    public func respond(_ status: Int, type: String = "text/plain; charset=utf-8", _ body: [UInt8], headers: [(String, String)] = []) {
        var head = "HTTP/1.1 \(status) \(HTTPResponseHead.standardReason(status))\r\nContent-Type: \(type)\r\n"
            + "Content-Length: \(body.count)\r\nCache-Control: no-cache\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        try? connection.write(Array((head + "\r\n").utf8) + body, timeout: .seconds(5))
    }

    /// Whether the peer has closed its side (or the connection broke), checked without waiting; what
    /// a peer sends meanwhile is read and dropped. A long-lived response (server-sent events, a
    /// frame stream) calls it between writes so that its slot is freed as soon as the peer goes,
    /// not at the next write.
    public func peerHasGone() -> Bool {
        do {
            guard try connection.waitReadable(timeout: .zero) else { return false }
            var scratch = [UInt8](repeating: 0, count: 512)
            return try scratch.withUnsafeMutableBytes { try connection.read(into: $0, timeout: .zero) } == 0
        } catch {
            return true
        }
    }

    /// Answers `status` with a line of text.
    public func respond(_ status: Int, _ text: String) {
        respond(status, Array((text + "\n").utf8))
    }
}
