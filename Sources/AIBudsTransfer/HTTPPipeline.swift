import AIBudsNet

/// One worker's kept-alive connection with requests sent ahead of their responses (HTTP/1.1
/// pipelining, RFC 9112 §9.3.2): while a file is written and hashed, the device already sends the
/// next ones. Responses are read in order; bytes read past one response (`carry`) start the next.
///
/// Only plain GETs of files without partial state are sent ahead. When a connection breaks, or a
/// response is not read to its end, the connection is dropped and the requests still unanswered
/// are sent again on a new one (GET is idempotent); each file keeps its own retries and resumes.
/// Used by one worker thread only.
final class HTTPPipeline {
    /// Where the connection goes.
    let address: SocketAddress
    /// The connection, while one is open.
    private(set) var connection: TCPConnection?
    /// Whether a close before any response byte means a stale kept-alive connection (it came
    /// from the pool, or a response already came over it) rather than a failure.
    private(set) var reused = false
    /// Bytes read past the last response read: the start of the next response.
    private(set) var carry: [UInt8] = []
    /// Requests sent on `connection` whose responses have not been read, oldest first.
    private(set) var unanswered = 0

    init(address: SocketAddress) {
        self.address = address
    }

    /// Sends requests after those already sent, on a new connection when there is none; false
    /// (and nothing sent) when no connection can be had or the send fails.
    func send(_ heads: [[UInt8]], pool: HTTPConnectionPool, configuration: HTTPFileDownloader.Configuration) -> Bool {
        guard !heads.isEmpty else { return true }
        if connection == nil {
            guard let checkout = try? pool.checkout(address, connectTimeout: configuration.connectTimeout) else { return false }
            connection = checkout.connection
            reused = checkout.reused
        }
        guard let connection else { return false }
        do {
            try connection.write(Array(heads.joined()), timeout: configuration.ioTimeout)
        } catch {
            reset()
            return false
        }
        unanswered += heads.count
        return true
    }

    /// The oldest unanswered response was read to its end and the connection stays open;
    /// `leftover` are the bytes read past it.
    func answered(leftover: [UInt8]) {
        unanswered -= 1
        carry = leftover
        reused = true
    }

    /// Drops the connection; the unanswered requests count as never sent.
    func reset() {
        connection?.close()
        connection = nil
        carry = []
        unanswered = 0
        reused = false
    }

    /// Hands an idle connection back to the pool (any other is closed).
    func release(to pool: HTTPConnectionPool) {
        if let connection, unanswered == 0, carry.isEmpty {
            pool.checkin(connection, for: address)
            self.connection = nil
        }
        reset()
    }
}
