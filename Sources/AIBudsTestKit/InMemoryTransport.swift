import AIBudsNet
import AIBudsSMPClient
import AIBudsSync
import AIBudsWire
import Foundation

/// An SMP transport inside one process: either one end of a pair, or an end wired to a server
/// handler (for example the emulator's SMP handler), optionally losing and delaying datagrams on a
/// `ManualClock` so that protocol tests are deterministic.
///
/// Datagrams are delivered synchronously: without a delay, a server's responses reach the client's
/// receive handler before `send` returns; with a delay, inside the `ManualClock.advance` call that
/// reaches their delivery time, in send order.
public final class InMemoryTransport: SMPTransport {
    /// Which way a datagram travels, for `InMemoryLink.drop`.
    public enum Direction: Sendable, Equatable {
        /// From this end to its peer (the client's requests).
        case outbound
        /// From the peer to this end (the server's responses).
        case inbound
    }

    private struct State {
        var onReceive: (@Sendable (Data) -> Void)?
        var closed = false
        var peer: InMemoryTransport?
        var sent: [Data] = []
        var counts: [Direction: Int] = [:]

        /// Returns the index of the next datagram in `direction` and counts it.
        mutating func next(_ direction: Direction) -> Int {
            let index = counts[direction, default: 0]
            counts[direction] = index + 1
            return index
        }
    }

    /// The largest datagram this transport accepts.
    public let mtu: Int
    private let link: InMemoryLink
    private let clock: ManualClock?
    private let server: (@Sendable (Data) -> [Data])?
    private let state = Locked(State())

    private init(mtu: Int, link: InMemoryLink, clock: ManualClock?, server: (@Sendable (Data) -> [Data])?) {
        self.mtu = mtu
        self.link = link
        self.clock = clock
        self.server = server
    }

    /// Creates an end whose peer is `server`: every datagram sent is passed to it and each datagram
    /// it returns is delivered back, subject to `link`.
    public convenience init(
        mtu: Int = 1024, link: InMemoryLink = InMemoryLink(), clock: ManualClock? = nil,
        server: @escaping @Sendable (Data) -> [Data]
    ) {
        self.init(mtu: mtu, link: link, clock: clock, server: Optional(server))
    }

    /// Creates two connected ends: what one sends, the other receives (subject to `link`, applied on
    /// each end's outbound direction).
    public static func pair(
        mtu: Int = 1024, link: InMemoryLink = InMemoryLink(), clock: ManualClock? = nil
    ) -> (InMemoryTransport, InMemoryTransport) {
        let first = InMemoryTransport(mtu: mtu, link: link, clock: clock, server: nil)
        let second = InMemoryTransport(mtu: mtu, link: link, clock: clock, server: nil)
        first.state.withLock { $0.peer = second }
        second.state.withLock { $0.peer = first }
        return (first, second)
    }

    /// Every datagram sent through this end so far, in order (including dropped ones).
    public var sentDatagrams: [Data] { state.withLock { $0.sent } }

    /// Starts delivering received datagrams to `onReceive`; an in-memory link never fails.
    public func start(
        onReceive: @escaping @Sendable (Data) -> Void,
        onFailure: @escaping @Sendable (any Error) -> Void
    ) throws {
        try state.withLock { state in
            guard !state.closed else { throw NetError(.closed, "the transport is closed") }
            guard state.onReceive == nil else { throw NetError(.socketFailed, "start was called twice") }
            state.onReceive = onReceive
        }
    }

    /// Starts the transport and returns its received datagrams as a stream (for a test acting as
    /// the peer of a pair).
    public func receivedDatagrams() throws -> AsyncStream<Data> {
        let (stream, continuation) = AsyncStream.makeStream(of: Data.self)
        try start(onReceive: { continuation.yield($0) }, onFailure: { _ in continuation.finish() })
        return stream
    }

    /// Sends a datagram to the peer (or server), which may lose or delay it as the link says; a
    /// closed transport or a datagram over the MTU throws the `NetError` a UDP socket throws.
    public func send(_ datagram: Data) throws {
        let (index, peer) = try state.withLock { state -> (Int, InMemoryTransport?) in
            guard !state.closed else { throw NetError(.closed, "the transport is closed") }
            guard datagram.count <= mtu else {
                throw NetError(.writeFailed, "a \(datagram.count)-byte datagram exceeds the MTU of \(mtu)", errno: EMSGSIZE)
            }
            state.sent.append(datagram)
            return (state.next(.outbound), state.peer)
        }
        transmit(datagram, .outbound, index) { [self] in
            if let server {
                for response in server(datagram) { deliverFromServer(response) }
            } else {
                peer?.deliver(datagram)
            }
        }
    }

    /// Delivers a datagram the server sends on its own (a held long-poll answered later), subject
    /// to the link like every response.
    public func deliverFromServer(_ datagram: Data) {
        let index = state.withLock { $0.next(.inbound) }
        transmit(datagram, .inbound, index) { [self] in deliver(datagram) }
    }

    /// Stops delivering and detaches from the peer.
    public func close() {
        state.withLock { state in
            state.closed = true
            state.onReceive = nil
            state.peer = nil
        }
    }

    private func deliver(_ datagram: Data) {
        let handler = state.withLock { $0.closed ? nil : $0.onReceive }
        handler?(datagram)
    }

    /// Applies the link's loss, duplication and delay to one datagram, then runs `arrive` for each
    /// copy that arrives.
    private func transmit(_ datagram: Data, _ direction: Direction, _ index: Int, arrive: @escaping @Sendable () -> Void) {
        guard !link.drop(direction, index, datagram) else { return }
        let copies = link.duplicate(direction, index, datagram) ? 2 : 1
        let delay = link.delay(direction, index, datagram)
        for _ in 0..<copies {
            if delay > .zero {
                precondition(clock != nil, "a delaying InMemoryLink needs a ManualClock")
                clock?.schedule(after: delay, arrive)
            } else {
                arrive()
            }
        }
    }
}

/// How an in-memory link mistreats datagrams: which it loses, which it duplicates, and how long
/// each takes (different delays reorder datagrams).
///
/// Each decision gets the datagram's direction and its index, counted from 0 per direction.
public struct InMemoryLink: Sendable {
    /// A decision about one datagram.
    public typealias Rule<T> = @Sendable (InMemoryTransport.Direction, Int, Data) -> T

    /// Whether the datagram is lost.
    public var drop: Rule<Bool>
    /// Whether the datagram arrives twice.
    public var duplicate: Rule<Bool>
    /// How long the datagram takes (on the transport's `ManualClock`).
    public var delay: Rule<Duration>

    /// Creates link conditions; the default loses nothing and delivers everything at once.
    public init(
        drop: @escaping Rule<Bool> = { _, _, _ in false },
        duplicate: @escaping Rule<Bool> = { _, _, _ in false },
        delay: @escaping Rule<Duration> = { _, _, _ in .zero }
    ) {
        self.drop = drop
        self.duplicate = duplicate
        self.delay = delay
    }

    /// A link on which every datagram takes `delay`.
    public init(delay: Duration) {
        self.init(delay: { _, _, _ in delay })
    }

    /// A link that loses the listed datagrams (by direction and index).
    public static func losing(_ direction: InMemoryTransport.Direction, _ indices: Set<Int>, delay: Duration = .zero) -> InMemoryLink {
        InMemoryLink(drop: { dir, index, _ in dir == direction && indices.contains(index) }, delay: { _, _, _ in delay })
    }

    /// A link that loses SMP datagrams by exchange rather than by position: `lose` gets the
    /// direction, the datagram's SMP sequence number, and how many datagrams with that sequence
    /// number went that way before (0 for a request's first transmission, or for the first
    /// response), so how often one exchange is lost does not depend on how the requests happen to
    /// interleave.
    ///
    /// A rule on the datagram index can lose the same request at every attempt when the traffic is
    /// periodic (a full window retransmitted in rounds): which request that hits depends on
    /// scheduling, so a test using one fails now and then on a loaded machine.
    public static func losingSMP(
        duplicate: @escaping Rule<Bool> = { _, _, _ in false },
        delay: @escaping Rule<Duration> = { _, _, _ in .zero },
        _ lose: @escaping @Sendable (_ direction: InMemoryTransport.Direction, _ sequence: UInt8, _ copy: Int) -> Bool
    ) -> InMemoryLink {
        struct Exchange: Hashable {
            var direction: InMemoryTransport.Direction
            var sequence: UInt8
        }
        let copies = Locked<[Exchange: Int]>([:])
        return InMemoryLink(
            drop: { direction, _, datagram in
                guard datagram.count >= SMPHeader.size else { return false }
                let sequence = datagram[datagram.startIndex + 6]  // the header's sequence byte
                let copy = copies.withLock { copies in
                    defer { copies[Exchange(direction: direction, sequence: sequence), default: 0] += 1 }
                    return copies[Exchange(direction: direction, sequence: sequence), default: 0]
                }
                return lose(direction, sequence, copy)
            },
            duplicate: duplicate, delay: delay)
    }
}
