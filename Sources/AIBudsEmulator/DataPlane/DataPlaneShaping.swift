import AIBudsSync

/// How the emulated Wi-Fi link shapes the data plane: a byte rate shared by every connection
/// and a round-trip time paid by every response before its first byte.
public struct DataPlaneShaping: Hashable, Sendable {
    /// Payload bytes per second over all connections; nil for no limit.
    public var bytesPerSecond: Int64?
    /// The round trip added before each response.
    public var roundTrip: Duration

    /// Creates a shaping that limits bodies to `bytesPerSecond` (unlimited when nil) and holds each
    /// response head for `roundTrip`.
    public init(bytesPerSecond: Int64?, roundTrip: Duration) {
        self.bytesPerSecond = bytesPerSecond
        self.roundTrip = roundTrip
    }

    /// No shaping: `sendfile(2)` at loopback speed.
    public static let unlimited = DataPlaneShaping(bytesPerSecond: nil, roundTrip: .zero)
    /// The `wifi` link profile of docs/protocol.md §6: 25 MB/s (25,000,000 bytes/s), 5 ms round trip.
    public static let wifi = DataPlaneShaping(bytesPerSecond: 25_000_000, roundTrip: .milliseconds(5))

    /// The shaping of a link profile name (`unlimited`, `wifi`), or nil for other names.
    public init?(profileName: String) {
        switch profileName {
        case "unlimited": self = .unlimited
        case "wifi": self = .wifi
        default: return nil
        }
    }

    /// Whether this shaping changes anything.
    public var isUnlimited: Bool { bytesPerSecond == nil && roundTrip == .zero }
}

/// A token bucket on a virtual clock: each send reserves its share of the link, and the sender
/// waits until that share has passed. Shared by all connections of a server.
final class LinkPacer: Sendable {
    private let bytesPerSecond: Int64
    /// The instant at which the link is free again.
    private let linkFreeAt: Locked<ContinuousClock.Instant>
    /// How far the link may lag behind the clock and still catch up (absorbs oversleeping).
    private let slack: Duration = .milliseconds(5)

    init(bytesPerSecond: Int64) {
        self.bytesPerSecond = max(1, bytesPerSecond)
        self.linkFreeAt = Locked(ContinuousClock.now)
    }

    /// Reserves the link for `bytes` and returns how long to wait before sending them.
    func reserve(_ bytes: Int) -> Duration {
        let now = ContinuousClock.now
        let cost = Duration.nanoseconds(Int64(bytes) * 1_000_000_000 / bytesPerSecond)
        let start = linkFreeAt.withLock { freeAt in
            let start = max(freeAt, now - slack)
            freeAt = start + cost
            return start
        }
        return start - now
    }
}
