import AIBudsHTTPServer
import AIBudsLog
import AIBudsNet
import AIBudsHTTPWire
import Foundation

/// Serves the requests of one connection, in order, until it closes.
///
/// The connection waits in the HTTP server's pending pool until it sends a request with the bearer
/// token, which must come within the server's `headTimeout` of its accept; it then takes a serving
/// slot. Each later request head must be whole within `headTimeout` of its first byte.
struct DataPlaneConnectionLoop {
    /// How long a kept-alive connection may sit idle between requests.
    static let idleTimeout: Duration = .seconds(60)
    /// How long a write may make no progress before the connection is dropped.
    static let writeTimeout: Duration = .seconds(30)
    /// The largest request body read and discarded; larger ones get `413`.
    static let maxDiscardedBody: Int64 = 64 * 1024
    /// The bytes sent per paced step of a shaped link.
    static let pacingChunk = 64 * 1024

    let server: DataPlaneServer
    let served: HTTPServerConnection
    var connection: TCPConnection { served.connection }

    init(server: DataPlaneServer, connection: HTTPServerConnection) {
        self.server = server
        served = connection
    }

    func run() {
        var admitted = false
        do {
            while !server.isStopping {
                let deadline = admitted ? nil : served.acceptedAt + server.headTimeout
                let request: HTTPRequestHead
                do {
                    request = try served.reader.next(deadline: deadline, idle: Self.idleTimeout, headTimeout: server.headTimeout)
                } catch HTTPHeadReader.End.timedOut {
                    served.headTimedOut()
                    return
                } catch is HTTPHeadReader.End {
                    return
                }
                server.countRequest()
                if !admitted, HTTPAuthorization.authorizes(headerValue: request.headers["Authorization"], token: server.token) {
                    guard served.admit() else {
                        server.logger.log(.info, "dataplane", "every serving slot is taken: answering 503")
                        _ = try send(DataPlaneResponder.empty(503, closeAfter: true))
                        return
                    }
                    admitted = true
                }
                guard try discardBody(of: request) else { return }
                let reply: DataPlaneReply
                if server.takeInjectedFailure() {
                    server.logger.log(.info, "dataplane", "fault: answering \(request.method) \(request.target) with 500")
                    reply = DataPlaneResponder.empty(500, closeAfter: !request.keepAlive)
                } else {
                    reply = DataPlaneResponder.reply(to: request, token: server.token, catalog: server.catalog)
                }
                server.logger.log(.debug, "dataplane", "\(request.method) \(request.target) → \(reply.head.status)")
                guard try send(reply), !reply.closeAfter else { return }
            }
        } catch let error as HTTPError {
            try? refuse(error)
        } catch {
            server.logger.log(.debug, "dataplane", "connection ended: \(error)")
        }
    }

    /// Reads and drops a small request body; false (after answering) when it cannot be framed.
    private func discardBody(of request: HTTPRequestHead) throws -> Bool {
        if request.headers["Transfer-Encoding"] != nil {
            _ = try send(DataPlaneResponder.empty(501, closeAfter: true))
            return false
        }
        let length: Int64
        do {
            length = try request.headers.contentLength() ?? 0
        } catch {
            _ = try send(DataPlaneResponder.empty(400, closeAfter: true))
            return false
        }
        guard length <= Self.maxDiscardedBody else {
            _ = try send(DataPlaneResponder.empty(413, closeAfter: true))
            return false
        }
        return try served.reader.discard(length, idle: Self.idleTimeout)
    }

    /// Answers a head that could not be parsed, then the connection closes.
    private func refuse(_ error: HTTPError) throws {
        server.logger.log(.debug, "dataplane", "bad request: \(error)")
        _ = try send(DataPlaneResponder.empty(HTTPHeadReader.status(for: error), closeAfter: true))
    }

    /// Sends a reply with the link's shaping and the injected faults; false when a fault closed
    /// the connection.
    private func send(_ reply: DataPlaneReply) throws -> Bool {
        let faults = server.faults
        if let delay = faults.firstByteDelay { server.pause(delay) }
        if server.shaping.roundTrip > .zero { server.pause(server.shaping.roundTrip) }
        guard let (file, range) = reply.body else {
            try connection.write(reply.head.serialized(), timeout: Self.writeTimeout)
            return true
        }
        let fd: Int32
        switch SystemCall.result("open", { open(file.path, O_RDONLY | O_CLOEXEC) }) {
        case .success(let opened): fd = opened
        case .failure(let failure):
            server.logger.log(.error, "dataplane", "cannot open \(file.path): errno \(failure.errno)")
            _ = try send(DataPlaneResponder.empty(500, closeAfter: true))
            return false
        }
        defer { SystemCall.closeIgnoringErrors(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, Int64(info.st_size) >= range.upperBound else {
            server.logger.log(.error, "dataplane", "\(file.path) is shorter than its catalog size \(file.size)")
            _ = try send(DataPlaneResponder.empty(500, closeAfter: true))
            return false
        }
        try connection.write(reply.head.serialized(), timeout: Self.writeTimeout, moreComing: true)

        var offset = range.lowerBound
        let bodyFaults = server.takeBodyFaults(for: range)
        if let stall = bodyFaults.stall {
            try sendBody(fd, from: offset, to: stall.atByte)
            offset = stall.atByte
            server.logger.log(.info, "dataplane", "fault: stalling \(stall.duration) at byte \(stall.atByte)")
            server.pause(stall.duration)
        }
        if let closeAt = bodyFaults.closeAt, offset <= closeAt {
            try sendBody(fd, from: offset, to: closeAt)
            server.logger.log(.info, "dataplane", "fault: closing at byte \(closeAt) of \(file.path)")
            connection.shutdown()
            return false
        }
        if let trickle = faults.trickle, trickle.atByte < range.upperBound {
            let start = max(offset, trickle.atByte)
            try sendBody(fd, from: offset, to: start)
            offset = start
            server.logger.log(.info, "dataplane", "fault: trickling \(trickle.bytesPerSecond) B/s from byte \(offset)")
            // A tenth of the rate every 100 ms (at least a byte), until the body ends or the peer goes.
            let step = max(1, trickle.bytesPerSecond / 10)
            let interval: Duration = trickle.bytesPerSecond >= 10 ? .milliseconds(100) : .milliseconds(1000 / trickle.bytesPerSecond)
            while offset < range.upperBound, !server.isStopping {
                let end = min(range.upperBound, offset + step)
                try sendBody(fd, from: offset, to: end)
                offset = end
                server.pause(interval)
            }
            return offset == range.upperBound
        }
        try sendBody(fd, from: offset, to: range.upperBound)
        return true
    }

    /// Sends file bytes `start..<end`: one `sendfile(2)` on an unlimited link, paced chunks on a
    /// shaped one.
    private func sendBody(_ fd: Int32, from start: Int64, to end: Int64) throws {
        var offset = start
        while offset < end {
            var count = end - offset
            if let pacer = server.pacer {
                count = min(count, Int64(Self.pacingChunk))
                let wait = pacer.reserve(Int(count))
                if wait > .zero { server.pause(wait) }
            }
            let sent = try connection.sendFile(fd, offset: offset, count: count, timeout: Self.writeTimeout)
            server.countBodyBytes(sent)
            guard sent == count else { throw NetError(.sendFileFailed, "the file ended early at byte \(offset + sent)") }
            offset += sent
        }
    }
}
