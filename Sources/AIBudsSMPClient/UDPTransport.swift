import AIBudsLog
import AIBudsNet
import Foundation

/// SMP over UDP: one packet per datagram on a socket connected to the device (`udp://HOST:PORT`).
public final class UDPTransport: SMPTransport {
    /// The SMP/UDP default port.
    public static let defaultPort: UInt16 = 1337

    /// The receive buffer asked for: a window of large Media `list` pages (16 KiB each, see
    /// `SMPClient.mediaListResponseLimit`) in flight at once must not overflow it.
    public static let receiveBufferSize = 1 << 20

    /// The device's address.
    public let remoteAddress: SocketAddress
    /// The largest packet sent: the device's MTU as far as this transport knows (1024 by default).
    public let mtu: Int
    private let socket: UDPSocket

    /// Opens a UDP socket connected to `address`.
    public init(address: SocketAddress, mtu: Int = 1024, logger: any LogService = NullLogService()) throws(SMPError) {
        do {
            self.socket = try UDPSocket(remote: address, receiveBufferSize: Self.receiveBufferSize, logger: logger)
        } catch {
            throw SMPError(.transport, "cannot open a UDP socket to \(address)", underlying: error)
        }
        self.remoteAddress = address
        self.mtu = mtu
    }

    /// Opens a UDP socket to a device named as `udp://HOST:PORT` (or `HOST:PORT`; the port defaults
    /// to 1337 when the URL has none).
    public convenience init(url: String, mtu: Int = 1024, logger: any LogService = NullLogService()) throws(SMPError) {
        try self.init(address: Self.address(parsing: url), mtu: mtu, logger: logger)
    }

    /// The socket address of `udp://HOST:PORT`, `HOST:PORT`, `udp://HOST` or `udp://[V6]:PORT`
    /// (numeric hosts only).
    public static func address(parsing url: String) throws(SMPError) -> SocketAddress {
        var text = Substring(url)
        if text.lowercased().hasPrefix("udp://") { text = text.dropFirst("udp://".count) }
        if text.hasSuffix("/") { text = text.dropLast() }
        if let address = try? SocketAddress(parsing: String(text)) { return address }
        let host = text.hasPrefix("[") && text.hasSuffix("]") ? text.dropFirst().dropLast() : text
        let address = SocketAddress(host: String(host), port: defaultPort)
        guard address.family != nil else {
            throw SMPError(.invalidRequest, "\"\(url)\" is not a udp://HOST:PORT address with a numeric host")
        }
        return address
    }

    /// The local address of the socket.
    public var localAddress: SocketAddress { socket.localAddress }

    /// Starts receiving datagrams from the device.
    public func start(
        onReceive: @escaping @Sendable (Data) -> Void,
        onFailure: @escaping @Sendable (any Error) -> Void
    ) throws {
        try socket.startReceiving(onReceive: { datagram, _ in onReceive(datagram) }, onFailure: onFailure)
    }

    /// Sends one packet to the device.
    public func send(_ datagram: Data) throws {
        try socket.send(datagram)
    }

    /// Closes the socket.
    public func close() {
        socket.close()
    }
}
