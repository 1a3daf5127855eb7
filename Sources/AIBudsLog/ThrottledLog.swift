import AIBudsSync

/// Log lines that a peer can cause at will (a refused request, a malformed packet), written at
/// most once per `interval`: the first is written, later ones within the interval are counted, and
/// the next line written says how many were left out. A flood of refusals costs a counter, not a
/// line each (2,000 unauthenticated requests once added 34 MB to a log store). Each message is cut
/// to ``maximumMessageLength`` characters.
public final class ThrottledLog: Sendable {
    /// The longest message written, in characters.
    public static let maximumMessageLength = 200
    private let logger: any LogService
    private let interval: Duration
    private let clock = ContinuousClock()
    private let state = Locked<(last: ContinuousClock.Instant?, suppressed: Int)>((nil, 0))

    /// Writes through `logger`, at most one line per `interval`.
    public init(logger: any LogService, interval: Duration = .seconds(10)) {
        self.logger = logger
        self.interval = interval
    }

    /// Writes `message` unless a line was written less than `interval` ago (then counts it).
    public func log(_ level: LogLevel, _ category: String, _ message: @autoclosure () -> String) {
        guard logger.isLogging(level) else { return }
        let now = clock.now
        let suppressed: Int? = state.withLock { state in
            if let last = state.last, now - last < interval {
                state.suppressed += 1
                return nil
            }
            defer { state = (now, 0) }
            return state.suppressed
        }
        guard let suppressed else { return }
        var text = String(message().prefix(Self.maximumMessageLength))
        if suppressed > 0 { text += " (and \(suppressed) more like it left out)" }
        logger.log(level, category, text)
    }
}
