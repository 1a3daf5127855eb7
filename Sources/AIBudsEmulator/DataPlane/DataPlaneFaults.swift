/// Faults the data plane injects, for tests and benchmarks of the client's recovery.
public struct DataPlaneFaults: Hashable, Sendable {
    /// Closes the connection just before file byte N, in the first response whose body carries
    /// byte N after other bytes; then clears itself (a connection drops once).
    public var closeAtByte: Int64?
    /// Stops sending for `duration` just before file byte `atByte`, in the first response whose
    /// body carries it after other bytes; then clears itself.
    public var stall: Stall?
    /// Sends every body slowly from a byte on, in every response (a hostile or failing link that
    /// trickles instead of stalling outright).
    public var trickle: Trickle?
    /// A delay before the head of every response (a slow first byte).
    public var firstByteDelay: Duration?
    /// How many of the next requests are answered with `500` and no body.
    public var failNextRequests: Int

    /// A pause in the middle of a body.
    public struct Stall: Hashable, Sendable {
        /// The file offset at which sending pauses.
        public var atByte: Int64
        /// How long it pauses.
        public var duration: Duration

        /// Creates a pause of `duration` in a response body once `atByte` bytes of it are sent.
        public init(atByte: Int64, duration: Duration) {
            self.atByte = atByte
            self.duration = duration
        }
    }

    /// A body sent at a crawl from a file offset on.
    public struct Trickle: Hashable, Sendable {
        /// The file offset from which bytes trickle.
        public var atByte: Int64
        /// How many bytes a second are sent from then on (at least 1; sent in tenths of a second).
        public var bytesPerSecond: Int64

        /// Creates a trickle of `bytesPerSecond` from file byte `atByte` on.
        public init(atByte: Int64, bytesPerSecond: Int64) {
            self.atByte = atByte
            self.bytesPerSecond = max(1, bytesPerSecond)
        }
    }

    /// Creates a set of faults; by default none.
    public init(
        closeAtByte: Int64? = nil, stall: Stall? = nil, trickle: Trickle? = nil, firstByteDelay: Duration? = nil, failNextRequests: Int = 0
    ) {
        self.closeAtByte = closeAtByte
        self.stall = stall
        self.trickle = trickle
        self.firstByteDelay = firstByteDelay
        self.failNextRequests = failNextRequests
    }

    /// Every HTTP response served whole and at once, the data plane's default.
    public static let none = DataPlaneFaults()
}
