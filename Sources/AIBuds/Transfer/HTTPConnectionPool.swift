import AIBudsNet
import Synchronization

/// Idle keep-alive connections per device address, reused across files.
final class HTTPConnectionPool: Sendable {
    private let idle = Mutex<[SocketAddress: [TCPConnection]]>([:])
    private let maxIdlePerHost: Int

    init(maxIdlePerHost: Int) {
        self.maxIdlePerHost = maxIdlePerHost
    }

    /// An idle connection to `address` that still looks open, else a new one; `reused` says which.
    func checkout(_ address: SocketAddress, connectTimeout: Duration) throws -> (connection: TCPConnection, reused: Bool) {
        while let connection = idle.withLock({ $0[address]?.popLast() }) {
            // An idle connection with something to read has been closed by the device (or sent
            // junk): either way it cannot carry a new request.
            if (try? connection.waitReadable(timeout: .zero)) == false { return (connection, true) }
            connection.close()
        }
        return (try TCPConnection.connect(to: address, timeout: connectTimeout), false)
    }

    /// Returns a connection that finished its exchange cleanly and may be kept alive.
    func checkin(_ connection: TCPConnection, for address: SocketAddress) {
        let kept = idle.withLock { idle -> Bool in
            guard idle[address, default: []].count < maxIdlePerHost else { return false }
            idle[address, default: []].append(connection)
            return true
        }
        if !kept { connection.close() }
    }

    /// Closes every idle connection.
    func closeAll() {
        let all = idle.withLock { idle -> [TCPConnection] in
            defer { idle.removeAll() }
            return idle.values.flatMap { $0 }
        }
        for connection in all { connection.close() }
    }
}
