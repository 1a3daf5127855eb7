import AIBudsSync
import Foundation
import Synchronization

/// Passes events on in bursts, in order: an event waits at most `interval` and goes out together
/// with those that came meanwhile, so the consumer of a fast import (thousands of events a second
/// from several threads) wakes about a hundred times a second rather than once per event. Sending
/// only queues (no system call); a thread of its own delivers. ``close()`` delivers the rest and
/// ends the thread.
final class EventBatcher<Event: Sendable>: Sendable {
    private let deliver: @Sendable (Event) -> Void
    private let pending = Locked<[Event]>([])
    /// Held while delivering, so that bursts never interleave.
    private let delivering = Locked(())
    private let closed = Atomic<Bool>(false)

    /// Creates a batcher that hands each event to `deliver`; call ``close()`` when done.
    init(interval: Duration = .milliseconds(10), deliver: @escaping @Sendable (Event) -> Void) {
        self.deliver = deliver
        let thread = Thread { [self] in
            while !closed.load(ordering: .acquiring) {
                Thread.sleep(forTimeInterval: interval.timeInterval)
                flush()
            }
        }
        thread.name = "aibuds-import-events"
        thread.start()
    }

    /// Queues `event`; it is delivered within `interval`.
    func send(_ event: Event) {
        pending.withLock { $0.append(event) }
    }

    /// Delivers every queued event now.
    func flush() {
        delivering.withLock { _ in
            let events = pending.withLock { pending in
                defer { pending.removeAll(keepingCapacity: true) }
                return pending
            }
            for event in events { deliver(event) }
        }
    }

    /// Delivers every queued event and ends the delivering thread; later events wait for
    /// another `flush()`.
    func close() {
        closed.store(true, ordering: .releasing)
        flush()
    }
}
