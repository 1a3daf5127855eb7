import AIBudsWire

/// How an `SMPClient` paces, retries and frames its requests.
public struct SMPClientConfiguration: Sendable {
    /// How long to wait for a response before sending the request again (same sequence number).
    public var retransmitInterval: Duration
    /// How many times a request is sent again before it fails with `timeout`.
    public var retransmissions: Int
    /// How many requests may be in flight at once; more wait their turn in call order. 1...128.
    ///
    /// The default, 12, was chosen by measurement (docs/benchmarks.md): on the emulated BLE link a
    /// File download reaches its ceiling from 8 requests in flight; 12 keeps that with margin for
    /// slower round trips, while larger windows only add queueing.
    public var window: Int
    /// The SMP version of requests until the device shows it only speaks v1.
    public var version: SMPVersion
    /// The largest packet to send, header included; nil uses the transport's MTU. Lowered by
    /// `SMPClient.negotiateMTU()` to the device's buffer size.
    public var mtu: Int?

    /// Creates a configuration; the defaults suit a BLE link (a request is answered well within a
    /// second even behind a full window of MTU-sized responses).
    public init(
        retransmitInterval: Duration = .seconds(1),
        retransmissions: Int = 3,
        window: Int = 12,
        version: SMPVersion = .v2,
        mtu: Int? = nil
    ) {
        self.retransmitInterval = retransmitInterval
        self.retransmissions = retransmissions
        self.window = window
        self.version = version
        self.mtu = mtu
    }

    /// The configuration with its numbers clamped to sane ranges.
    var normalized: SMPClientConfiguration {
        var copy = self
        copy.window = min(max(window, 1), 128)
        copy.retransmissions = min(max(retransmissions, 0), 100)
        if copy.retransmitInterval <= .zero { copy.retransmitInterval = .milliseconds(1) }
        if let mtu { copy.mtu = max(mtu, SMPHeader.size + 16) }
        return copy
    }
}
