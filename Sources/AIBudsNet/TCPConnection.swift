#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// One TCP connection over a non-blocking socket, with blocking calls bounded by timeouts.
///
/// Every call that waits takes an idle `timeout` (nil waits forever): it fails with
/// `NetError.timedOut` when no progress happens for that long. The owner calls `read`, `write`,
/// `sendFile` and `close` from one thread at a time; any thread may call `shutdown` to wake a
/// blocked call (it then fails or reads end-of-stream).
public final class TCPConnection: Sendable {
    /// Which direction `shutdown` closes.
    public enum ShutdownDirection: Sendable {
        /// No more writes: the peer reads end-of-stream.
        case write
        /// Both directions: wakes blocked calls on this end too.
        case both
    }

    /// The socket's descriptor; valid until `close`.
    public let descriptor: Int32
    /// The local end, when the system reports it.
    public let localAddress: SocketAddress?
    /// The remote end, when the system reports it.
    public let remoteAddress: SocketAddress?
    private let closed = Atomic<Bool>(false)

    /// Adopts a connected non-blocking socket; the connection closes it.
    init(descriptor: Int32) {
        self.descriptor = descriptor
        self.localAddress = SocketAddress.of(socket: descriptor, peer: false)
        self.remoteAddress = SocketAddress.of(socket: descriptor, peer: true)
        TCPSocketSupport.setOption(descriptor, level: Int32(IPPROTO_TCP), name: TCP_NODELAY, value: 1)
    }

    deinit { close() }

    /// Connects to `address`, failing with `connectFailed` or `timedOut`.
    public static func connect(to address: SocketAddress, timeout: Duration?) throws -> TCPConnection {
        guard let family = address.family else {
            throw NetError(.invalidAddress, "host \"\(address.host)\" is not a numeric IP address")
        }
        let fd = try TCPSocketSupport.makeSocket(family: family)
        do {
            // Not repeated after EINTR: the connection goes on in the background, as after EINPROGRESS.
            let result = try address.withSockAddr { address, length in
                SystemCall.result("connect", retryingOnInterrupt: false) { Glibc.connect(fd, address, length) }
            }
            if case .failure(let failure) = result {
                guard failure.errno == EINPROGRESS || failure.errno == EINTR else {
                    throw NetError.posix(.connectFailed, "connect to \(address)", errno: failure.errno)
                }
                try TCPSocketSupport.waitFor(.writable, fd: fd, timeout: timeout, operation: "connect to \(address)")
                var error: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                _ = try NetError.checking(.connectFailed, "getsockopt", "getsockopt") {
                    getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
                }
                if error != 0 { throw NetError.posix(.connectFailed, "connect to \(address)", errno: error) }
            }
        } catch {
            SystemCall.closeIgnoringErrors(fd)
            throw error
        }
        return TCPConnection(descriptor: fd)
    }

    /// Whether `close` has been called.
    public var isClosed: Bool { closed.load(ordering: .acquiring) }

    /// Reads up to `buffer.count` bytes; returns 0 at end of stream.
    public func read(into buffer: UnsafeMutableRawBufferPointer, timeout: Duration?) throws -> Int {
        guard !isClosed else { throw NetError(.closed, "read on a closed connection") }
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            switch SystemCall.result("recv", { recv(descriptor, base, buffer.count, 0) }) {
            case .success(let count): return count
            case .failure(let failure) where failure.wouldBlock:
                try TCPSocketSupport.waitFor(.readable, fd: descriptor, timeout: timeout, operation: "read")
            case .failure(let failure):
                throw TCPSocketSupport.ioError(.readFailed, "recv", errno: failure.errno)
            }
        }
    }

    /// Waits until data (or end of stream) can be read; false when `timeout` passes first.
    public func waitReadable(timeout: Duration?) throws -> Bool {
        guard !isClosed else { throw NetError(.closed, "wait on a closed connection") }
        do {
            try TCPSocketSupport.waitFor(.readable, fd: descriptor, timeout: timeout, operation: "wait")
            return true
        } catch let error as NetError where error.code == .timedOut {
            return false
        }
    }

    /// Writes all of `bytes`; `moreComing` lets the system hold them for the data that follows
    /// (`MSG_MORE`), so a response head and its body leave in the same segments.
    public func write(_ bytes: UnsafeRawBufferPointer, timeout: Duration?, moreComing: Bool = false) throws {
        guard !isClosed else { throw NetError(.closed, "write on a closed connection") }
        guard let base = bytes.baseAddress else { return }
        let flags = Int32(MSG_NOSIGNAL) | (moreComing ? Int32(MSG_MORE) : 0)
        var offset = 0
        while offset < bytes.count {
            switch SystemCall.result("send", { send(descriptor, base + offset, bytes.count - offset, flags) }) {
            case .success(let count): offset += count
            case .failure(let failure) where failure.wouldBlock:
                try TCPSocketSupport.waitFor(.writable, fd: descriptor, timeout: timeout, operation: "write")
            case .failure(let failure):
                throw TCPSocketSupport.ioError(.writeFailed, "send", errno: failure.errno)
            }
        }
    }

    /// Writes all of `bytes`.
    public func write(_ bytes: [UInt8], timeout: Duration?, moreComing: Bool = false) throws {
        try bytes.withUnsafeBytes { try write($0, timeout: timeout, moreComing: moreComing) }
    }

    /// Sends `count` bytes of an open file from `offset` with `sendfile(2)`, without copying them
    /// through user space; returns how many were sent, fewer only when the file ends early.
    public func sendFile(_ fileDescriptor: Int32, offset: Int64, count: Int64, timeout: Duration?) throws -> Int64 {
        guard !isClosed else { throw NetError(.closed, "sendfile on a closed connection") }
        var position = off_t(offset)
        var remaining = count
        while remaining > 0 {
            let chunk = Int(min(remaining, 1 << 30))
            switch SystemCall.result("sendfile", { Glibc.sendfile(descriptor, fileDescriptor, &position, chunk) }) {
            case .success(0): return count - remaining
            case .success(let sent): remaining -= Int64(sent)
            case .failure(let failure) where failure.wouldBlock:
                try TCPSocketSupport.waitFor(.writable, fd: descriptor, timeout: timeout, operation: "sendfile")
            case .failure(let failure):
                throw TCPSocketSupport.ioError(.sendFileFailed, "sendfile", errno: failure.errno)
            }
        }
        return count - remaining
    }

    /// Shuts the connection down in one or both directions; safe from any thread, and wakes
    /// calls blocked on this connection.
    public func shutdown(_ direction: ShutdownDirection = .both) {
        guard !isClosed else { return }
        _ = Glibc.shutdown(descriptor, direction == .both ? Int32(SHUT_RDWR) : Int32(SHUT_WR))
    }

    /// Closes the socket; later calls fail with `NetError.closed`. Idempotent.
    public func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        SystemCall.closeIgnoringErrors(descriptor)
    }
}
