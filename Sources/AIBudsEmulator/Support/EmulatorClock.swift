import Dispatch

/// The emulator's source of time and timers; tests inject a manual clock to make long-polls,
/// recordings and the hotspot delay deterministic.
public protocol EmulatorClock: Sendable {
    /// Monotonic time since a fixed origin (the clock's creation).
    var uptime: Duration { get }
    /// Runs `action` once, `delay` from now, on any thread.
    func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void)
}

/// The real clock: `ContinuousClock` for time, a Dispatch queue for timers.
public struct SystemEmulatorClock: EmulatorClock {
    private let origin = ContinuousClock.now
    private let queue = DispatchQueue(label: "aibuds.emulator.timers", attributes: .concurrent)

    /// Creates a clock whose uptime starts now.
    public init() {}

    /// Time since this clock was created.
    public var uptime: Duration { ContinuousClock.now - origin }

    /// Runs `action` after `delay` on a Dispatch queue.
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) {
        let nanoseconds = max(0, delay.nanoseconds)
        queue.asyncAfter(deadline: .now() + .nanoseconds(Int(clamping: nanoseconds)), execute: action)
    }
}

extension Duration {
    /// The duration in whole nanoseconds (saturating).
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (product, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return product.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue
    }

    /// The duration in seconds as a `Double`.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
