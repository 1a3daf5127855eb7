#if canImport(Glibc)
import AIBudsSync
import Glibc
#endif
import AIBudsLog
import Dispatch
import Foundation

/// A UDP socket: bound (a server), connected to one peer (a client), or both.
///
/// Receiving is event-driven: `startReceiving` hands every datagram, with its sender, to a handler
/// on a private serial queue, in arrival order. Sending is safe from any thread. `close` stops
/// receiving and releases the port; it is idempotent, and no handler runs after the close has
/// finished on the receive queue.
///
/// On a connected socket, errors the system reports for earlier datagrams (a port unreachable,
/// `ECONNREFUSED`) are logged and receiving goes on, because the peer may come back.
public final class UDPSocket: Sendable {
    /// The bound local address, with the port the system chose when 0 was asked for.
    public let localAddress: SocketAddress
    /// The connected peer, or nil for an unconnected (server) socket.
    public let remoteAddress: SocketAddress?
    /// The largest datagram `startReceiving` delivers whole (bigger ones are dropped and logged).
    public static let maxDatagramSize = 65_535

    private struct State {
        var closed = false
        var source: (any DispatchSourceRead)?
    }

    private let descriptor: UDPDescriptor
    private let logger: any LogService
    private let queue: DispatchQueue
    private let state = Locked(State())

    /// Opens a socket bound to `local` (port 0 picks a free port) and, when `remote` is given,
    /// connected to it; with only `remote`, the system picks the local address. `receiveBufferSize`
    /// asks for a receive buffer of that many bytes (`SO_RCVBUF`, which the system caps at its
    /// `rmem_max`), so that a burst of large datagrams is not dropped.
    public init(
        local: SocketAddress? = nil, remote: SocketAddress? = nil, receiveBufferSize: Int? = nil,
        logger: any LogService = NullLogService()
    ) throws {
        guard let family = (remote ?? local)?.family else {
            let text = (remote ?? local)?.description ?? "nothing"
            throw NetError(.invalidAddress, "a UDP socket needs a numeric IPv4 or IPv6 address, got \(text)")
        }
        let type = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd = try NetError.checking(.socketFailed, "socket", "socket") { socket(family, type, 0) }
        if let receiveBufferSize {
            var size = Int32(clamping: receiveBufferSize)
            _ = setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        do {
            if let local {
                guard local.family == family else {
                    throw NetError(.invalidAddress, "local \(local) and remote \(remote?.description ?? "") differ in address family")
                }
                try local.withSockAddr { target, length in
                    _ = try NetError.checking(.bindFailed, "bind \(local)", "bind") { bind(fd, target, length) }
                }
            }
            if let remote {
                try remote.withSockAddr { target, length in
                    _ = try NetError.checking(.connectFailed, "connect to \(remote)", "connect") { Glibc.connect(fd, target, length) }
                }
            }
            self.localAddress = try SocketAddress.bound(socket: fd)
        } catch {
            SystemCall.closeIgnoringErrors(fd)
            throw error
        }
        self.descriptor = UDPDescriptor(fd)
        self.remoteAddress = remote
        self.logger = logger
        self.queue = DispatchQueue(label: "aibuds.udp.\(localAddress)")
    }

    deinit { close() }

    /// Whether `close` has been called.
    public var isClosed: Bool { state.withLock { $0.closed } }

    /// Starts delivering datagrams to `onReceive` with their sender (for a connected socket, always
    /// `remoteAddress`); a failure that ends receiving goes to `onFailure` once. Call at most once.
    public func startReceiving(
        onReceive: @escaping @Sendable (Data, SocketAddress) -> Void,
        onFailure: @escaping @Sendable (NetError) -> Void = { _ in }
    ) throws {
        // The source is made, stored and activated under the lock: a dispatch source is not
        // Sendable, so it never leaves the state it belongs to.
        try state.withLock { state in
            guard !state.closed else { throw NetError(.closed, "the UDP socket is closed") }
            guard state.source == nil else { throw NetError(.socketFailed, "startReceiving was called twice") }
            let source = DispatchSource.makeReadSource(fileDescriptor: descriptor.fd, queue: queue)
            let buffer = UDPReceiveBuffer(capacity: Self.maxDatagramSize + 1)
            source.setEventHandler { [weak self] in
                guard let self else { return }
                if let failure = self.drain(into: buffer, onReceive) {
                    onFailure(failure)
                    self.close()
                }
            }
            source.setCancelHandler { [descriptor] in
                buffer.deallocate()
                descriptor.close()
            }
            state.source = source
            source.activate()
        }
    }

    /// Sends `data` as one datagram to the connected peer.
    public func send(_ data: Data) throws {
        guard let remoteAddress else { throw NetError(.writeFailed, "send without an address needs a connected UDP socket") }
        try transmit(data, to: nil, description: remoteAddress.description)
    }

    /// Sends `data` as one datagram to `address` (on an unconnected socket).
    public func send(_ data: Data, to address: SocketAddress) throws {
        try transmit(data, to: address, description: address.description)
    }

    /// Stops receiving and closes the socket. Idempotent; safe from any thread, also from the
    /// receive handler.
    public func close() {
        let closeNow = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.closed = true
            guard let source = state.source else { return true }
            source.cancel()  // its cancel handler closes the descriptor after the last event
            return false
        }
        if closeNow { descriptor.close() }
    }

    /// Sends one datagram, waiting (at most a second) for buffer space when the socket is full.
    private func transmit(_ data: Data, to address: SocketAddress?, description: String) throws {
        while true {
            guard !isClosed else { throw NetError(.closed, "the UDP socket is closed") }
            let failure: Int32? = try descriptor.use { descriptor in
                let sent = try data.withUnsafeBytes { bytes -> Result<Int, SystemCallError> in
                    guard let address else {
                        return SystemCall.result("send") { Glibc.send(descriptor, bytes.baseAddress, bytes.count, 0) }
                    }
                    do {
                        return try address.withSockAddr { target, length in
                            SystemCall.result("sendto") { sendto(descriptor, bytes.baseAddress, bytes.count, 0, target, length) }
                        }
                    } catch {
                        throw NetError(.invalidAddress, "cannot send to \(description)")
                    }
                }
                if case .failure(let failure) = sent { return failure.errno }
                return nil
            }
            switch failure {
            case nil:
                return
            case EAGAIN?, EWOULDBLOCK?, ENOBUFS?:
                try TCPSocketSupport.waitFor(.writable, fd: descriptor.fd, timeout: .seconds(1), operation: "send to \(description)")
            case ECONNREFUSED?, EHOSTUNREACH?, ENETUNREACH?:
                throw NetError.posix(.connectFailed, "send to \(description)", errno: failure!)
            case let value?:
                throw NetError.posix(value == EBADF ? .closed : .writeFailed, "send to \(description)", errno: value)
            }
        }
    }

    /// Reads every datagram waiting on the socket; returns the error that ends receiving, if any.
    private func drain(into buffer: UDPReceiveBuffer, _ onReceive: (Data, SocketAddress) -> Void) -> NetError? {
        while true {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let received = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sender in
                    SystemCall.result("recvfrom") { recvfrom(descriptor.fd, buffer.bytes.baseAddress, buffer.bytes.count, 0, sender, &length) }
                }
            }
            let count: Int
            switch received {
            case .success(let value):
                count = value
            case .failure(let failure) where failure.wouldBlock:
                return nil
            case .failure(let failure) where [ECONNREFUSED, EHOSTUNREACH, ENETUNREACH].contains(failure.errno):
                logger.log(.debug, "udp", "\(localAddress): earlier datagram to \(remoteAddress?.description ?? "peer") was not delivered (errno \(failure.errno))")
                continue
            case .failure(let failure):
                if isClosed { return nil }
                return NetError.posix(failure.errno == EBADF ? .closed : .readFailed, "receive on \(localAddress)", errno: failure.errno)
            }
            guard count <= Self.maxDatagramSize else {
                logger.log(.warning, "udp", "\(localAddress): dropped a datagram larger than \(Self.maxDatagramSize) bytes")
                continue
            }
            guard let sender = remoteAddress ?? SocketAddress(storage: storage) else { continue }
            onReceive(Data(bytes: buffer.bytes.baseAddress!, count: count), sender)
        }
    }
}

/// A socket descriptor that is closed exactly once, and never while a send is using it (a closed
/// number could already belong to another file).
private final class UDPDescriptor: Sendable {
    let fd: Int32
    private let open = Locked(true)

    init(_ fd: Int32) { self.fd = fd }

    /// Runs `body` with the descriptor while it is open; throws `NetError.closed` after `close`.
    func use<R>(_ body: (Int32) throws -> R) throws -> R {
        try open.withLock { open in
            guard open else { throw NetError(.closed, "the UDP socket is closed") }
            return try body(fd)
        }
    }

    /// Closes the descriptor; idempotent.
    func close() {
        open.withLock { open in
            guard open else { return }
            open = false
            SystemCall.closeIgnoringErrors(fd)
        }
    }
}

/// The receive buffer of one socket; used only on that socket's serial receive queue, which is
/// what makes the unchecked `Sendable` safe.
private final class UDPReceiveBuffer: @unchecked Sendable {
    let bytes: UnsafeMutableRawBufferPointer

    init(capacity: Int) {
        bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
    }

    func deallocate() { bytes.deallocate() }
}
