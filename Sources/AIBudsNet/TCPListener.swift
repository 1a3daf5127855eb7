#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A listening TCP socket bound to a local address.
///
/// One thread calls `accept`; any thread may call `shutdown` to wake it (it then throws
/// `NetError.closed`); the owner calls `close` when no `accept` is running.
public final class TCPListener: Sendable {
    /// The bound address, with the port the system chose when 0 was asked for.
    public let localAddress: SocketAddress
    private let descriptor: Int32
    private let shutDown = Atomic<Bool>(false)
    private let closed = Atomic<Bool>(false)

    /// Binds `address` (port 0 picks a free port) and starts listening.
    public init(binding address: SocketAddress, backlog: Int32 = 128) throws {
        guard let family = address.family else {
            throw NetError(.invalidAddress, "host \"\(address.host)\" is not a numeric IP address")
        }
        let fd = try TCPSocketSupport.makeSocket(family: family)
        TCPSocketSupport.setOption(fd, level: SOL_SOCKET, name: SO_REUSEADDR, value: 1)
        do {
            try address.withSockAddr { target, length in
                _ = try NetError.checking(.bindFailed, "bind \(address)", "bind") { bind(fd, target, length) }
            }
            _ = try NetError.checking(.listenFailed, "listen on \(address)", "listen") { listen(fd, backlog) }
            self.localAddress = try SocketAddress.bound(socket: fd)
        } catch {
            SystemCall.closeIgnoringErrors(fd)
            throw error
        }
        self.descriptor = fd
    }

    deinit { close() }

    /// Waits for the next connection; nil when `timeout` passes first.
    public func accept(timeout: Duration?) throws -> TCPConnection? {
        while true {
            guard !shutDown.load(ordering: .acquiring) else { throw NetError(.closed, "listener was shut down") }
            switch SystemCall.result("accept", { Glibc.accept(descriptor, nil, nil) }) {
            case .success(let fd):
                do {
                    try TCPSocketSupport.configureAccepted(fd)
                } catch {
                    SystemCall.closeIgnoringErrors(fd)
                    throw error
                }
                return TCPConnection(descriptor: fd)
            case .failure(let failure) where failure.errno == ECONNABORTED || failure.errno == EPROTO:
                continue
            case .failure(let failure) where failure.wouldBlock:
                do {
                    try TCPSocketSupport.waitFor(.readable, fd: descriptor, timeout: timeout, operation: "accept")
                } catch let error as NetError where error.code == .timedOut {
                    return nil
                }
            case .failure(let failure):
                if shutDown.load(ordering: .acquiring) { throw NetError(.closed, "listener was shut down") }
                throw NetError.posix(.acceptFailed, "accept", errno: failure.errno)
            }
        }
    }

    /// Stops accepting and wakes a blocked `accept`; safe from any thread.
    public func shutdown() {
        guard !shutDown.exchange(true, ordering: .acquiringAndReleasing), !closed.load(ordering: .acquiring) else {
            return
        }
        _ = Glibc.shutdown(descriptor, Int32(SHUT_RDWR))
    }

    /// Closes the socket, releasing the port. Idempotent.
    public func close() {
        shutdown()
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        SystemCall.closeIgnoringErrors(descriptor)
    }
}
