/// How an emulated link is shaped (docs/protocol.md §6).
public enum LinkProfile: String, Sendable, CaseIterable {
    /// No shaping.
    case unlimited
    /// BLE 2M PHY with data length extension: SMP datagrams shaped by ``BLELinkShaper``, MTU 976.
    case ble
    /// Wi-Fi: the HTTP data plane shaped to 25 MB/s with a 5 ms round trip; SMP unshaped.
    case wifi

    /// The SMP MTU a device reports on this link.
    public var mtu: Int { self == .ble ? 976 : 1024 }

    /// The largest Media `list` response a device sends on this link to a client that takes it
    /// (docs/protocol.md §3): 16 KiB over plain UDP (what the SDK asks for; the replay cache keeps
    /// responses, so larger ones would cost memory for nothing), the MTU on `ble`, whose small
    /// link buffers a device cannot exceed.
    public var maxListResponse: Int { self == .ble ? mtu : 16_384 }

    /// How the HTTP data plane is slowed: 25 MB/s with a 5 ms round trip for `wifi`, not at all
    /// otherwise.
    public var dataPlaneShaping: DataPlaneShaping { self == .wifi ? .wifi : .unlimited }
}

/// One direction of an emulated BLE connection: link packets of 244 payload bytes, a 15 ms
/// connection interval and at most 11 link packets per interval.
///
/// A datagram of N bytes takes ⌈N/244⌉ link packets, placed in the earliest intervals with budget
/// left (a datagram may span intervals), after the datagrams before it; it is delivered at the end
/// of the interval holding its last link packet. So a stop-and-wait exchange waits at least one
/// interval each way, and a pipelined sender approaches 11 × 244 B / 15 ms = 178,933 B/s.
///
/// A pure value on a caller-supplied time line, so that real servers (wall clock) and
/// deterministic tests (a manual clock) shape identically.
public struct BLELinkShaper: Sendable, Equatable {
    /// Payload bytes per link packet.
    public var packetPayload = 244
    /// The connection interval.
    public var interval = Duration.milliseconds(15)
    /// Link packets per interval in this direction.
    public var packetsPerInterval = 11

    private var current: Int64 = -1
    private var used = 0

    /// Creates a shaper with the parameters of docs/protocol.md §6.
    public init() {}

    /// The best payload rate of this shaping, in bytes per second.
    public var maxBytesPerSecond: Double {
        Double(packetPayload * packetsPerInterval) / interval.seconds
    }

    /// Reserves the link packets of a `size`-byte datagram sent at `now` (time since the link's
    /// start) and returns when it is delivered.
    public mutating func deliveryTime(forDatagramOf size: Int, at now: Duration) -> Duration {
        let intervalNanos = max(1, interval.nanoseconds)
        let nowIndex = max(0, now.nanoseconds) / intervalNanos
        if current < nowIndex {
            current = nowIndex
            used = 0
        }
        var remaining = max(1, (size + packetPayload - 1) / packetPayload)
        while remaining > 0 {
            if used == packetsPerInterval {
                current += 1
                used = 0
            }
            let take = min(packetsPerInterval - used, remaining)
            used += take
            remaining -= take
        }
        return .nanoseconds((current + 1) * intervalNanos)
    }
}
