import Foundation

/// Carries SMP packets between a client and a device, one packet per datagram.
///
/// A transport is connected to one peer. `start` is called once, before the first `send`; from then
/// on every datagram the peer sends is handed to the receive handler, serially and in arrival order.
/// The handler may be called on any thread, also from inside `send` (an in-memory peer answering at
/// once), so it must not block. `close` is idempotent; after it no handler is called any more.
public protocol SMPTransport: Sendable {
    /// The largest datagram (a whole SMP packet, header included) this transport carries.
    var mtu: Int { get }

    /// Starts delivering received datagrams to `onReceive`, and a failure that ends the transport
    /// (the socket broke) to `onFailure`, at most once.
    func start(
        onReceive: @escaping @Sendable (Data) -> Void,
        onFailure: @escaping @Sendable (any Error) -> Void
    ) throws

    /// Sends one datagram to the peer; throws when the transport cannot send it (closed, broken).
    func send(_ datagram: Data) throws

    /// Stops receiving and releases the transport's resources.
    func close()

    /// Whether every datagram sent arrives once and in order unless the link breaks (a GATT write
    /// socket): then a request is never sent again, because a device keeps no replay cache and
    /// would carry out a repeated command twice. False for datagram links (UDP), which may lose one.
    var deliversReliably: Bool { get }
}

extension SMPTransport {
    /// False: a transport loses datagrams unless it says otherwise.
    public var deliversReliably: Bool { false }
}
