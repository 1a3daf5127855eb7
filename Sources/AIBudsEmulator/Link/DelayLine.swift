import Foundation

/// Runs actions at given instants, in instant order (ties in the order they were added), on one
/// thread of its own: the delivery queue of a shaped or faulty link.
///
/// Dispatch timers do not promise an order for equal deadlines; a shaped link must keep the order
/// its shaper computed, so this keeps a sorted queue and a condition variable.
final class DelayLine: @unchecked Sendable {
    // Every stored property below is read and written only with `condition` locked.
    private let condition = NSCondition()
    private var queue: [(deadline: ContinuousClock.Instant, order: UInt64, action: @Sendable () -> Void)] = []
    private var nextOrder: UInt64 = 0
    private var stopped = false
    private var running = false

    init(name: String) {
        let thread = Thread { [self] in run() }
        thread.name = name
        running = true
        thread.start()
    }

    /// Runs `action` at `deadline` (at once when it has passed).
    func schedule(at deadline: ContinuousClock.Instant, _ action: @escaping @Sendable () -> Void) {
        condition.lock()
        defer { condition.unlock() }
        guard !stopped else { return }
        nextOrder += 1
        let entry = (deadline: deadline, order: nextOrder, action: action)
        var low = 0
        var high = queue.count
        while low < high {
            let middle = (low + high) / 2
            if queue[middle].deadline <= deadline { low = middle + 1 } else { high = middle }
        }
        queue.insert(entry, at: low)
        condition.signal()
    }

    /// Drops every pending action and ends the thread; waits up to a second for it.
    func stop() {
        condition.lock()
        stopped = true
        queue.removeAll()
        condition.broadcast()
        let deadline = Date().addingTimeInterval(1)
        while running, condition.wait(until: deadline) {}
        condition.unlock()
    }

    private func run() {
        condition.lock()
        while !stopped {
            guard let first = queue.first else {
                condition.wait()
                continue
            }
            let now = ContinuousClock.now
            if first.deadline <= now {
                queue.removeFirst()
                condition.unlock()
                first.action()
                condition.lock()
            } else {
                let wait = now.duration(to: first.deadline)
                _ = condition.wait(until: Date().addingTimeInterval(wait.seconds))
            }
        }
        running = false
        condition.broadcast()
        condition.unlock()
    }
}
