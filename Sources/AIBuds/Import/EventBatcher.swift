import Dispatch
import Synchronization

/// Passes events on in bursts, in order: an event waits at most `interval` and goes out together
/// with those that came meanwhile, so the consumer of a fast import (thousands of events a second
/// from several threads) wakes a few hundred times a second rather than once per event.
final class EventBatcher<Event: Sendable>: Sendable {
    private let deliver: @Sendable (Event) -> Void
    private let interval: DispatchTimeInterval
    private let pending = Mutex<(events: [Event], scheduled: Bool)>(([], false))
    /// Held while delivering, so that bursts never interleave.
    private let delivering = Mutex(())

    /// Creates a batcher that hands each event to `deliver`.
    init(interval: Duration = .milliseconds(10), deliver: @escaping @Sendable (Event) -> Void) {
        self.deliver = deliver
        let (seconds, attoseconds) = interval.components
        self.interval = .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
    }

    /// Queues `event`; it is delivered within `interval`.
    func send(_ event: Event) {
        let schedule = pending.withLock { pending in
            pending.events.append(event)
            defer { pending.scheduled = true }
            return !pending.scheduled
        }
        if schedule {
            DispatchQueue.global().asyncAfter(deadline: .now() + interval) { [self] in flush() }
        }
    }

    /// Delivers every queued event now.
    func flush() {
        delivering.withLock { _ in
            let events = pending.withLock { pending in
                defer {
                    pending.events.removeAll(keepingCapacity: true)
                    pending.scheduled = false
                }
                return pending.events
            }
            for event in events { deliver(event) }
        }
    }
}
