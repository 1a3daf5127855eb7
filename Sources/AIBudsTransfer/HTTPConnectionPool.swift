import AIBudsNet
import AIBudsSync

/// Idle keep-alive connections per device address, reused across files.
final class HTTPConnectionPool: Sendable {
    private struct Idle {
        let connection: TCPConnection
        let since: ContinuousClock.Instant
    }

    /// A connection idle for less than this is reused without first checking that it is still
    /// open (a `poll` per file): one that closed meanwhile fails its exchange before any response
    /// byte, and the download replaces it without counting an attempt.
    static let recentlyIdle: Duration = .milliseconds(500)

    private let idle = Locked<[SocketAddress: [Idle]]>([:])
    private let maxIdlePerHost: Int

    init(maxIdlePerHost: Int) {
        self.maxIdlePerHost = maxIdlePerHost
    }

    /// An idle connection to `address` that still looks open, else a new one; `reused` says which.
    func checkout(_ address: SocketAddress, connectTimeout: Duration) throws -> (connection: TCPConnection, reused: Bool) {
        while let entry = idle.withLock({ $0[address]?.popLast() }) {
            if ContinuousClock.now - entry.since < HTTPConnectionPool.recentlyIdle { return (entry.connection, true) }
            // An idle connection with something to read has been closed by the device (or sent
            // junk): either way it cannot carry a new request.
            if (try? entry.connection.waitReadable(timeout: .zero)) == false { return (entry.connection, true) }
            entry.connection.close()
        }
        return (try TCPConnection.connect(to: address, timeout: connectTimeout), false)
    }

    /// Returns a connection that finished its exchange cleanly and may be kept alive.
    func checkin(_ connection: TCPConnection, for address: SocketAddress) {
        let kept = idle.withLock { idle -> Bool in
            guard idle[address, default: []].count < maxIdlePerHost else { return false }
            idle[address, default: []].append(Idle(connection: connection, since: .now))
            return true
        }
        if !kept { connection.close() }
    }

    /// Closes every idle connection.
    func closeAll() {
        let all = idle.withLock { idle -> [Idle] in
            defer { idle.removeAll() }
            return idle.values.flatMap { $0 }
        }
        for entry in all { entry.connection.close() }
    }
}
