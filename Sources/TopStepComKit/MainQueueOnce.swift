import AIBudsSync
import Dispatch

/// Delivers one value to a callback on the main queue, exactly once, however many times
/// `deliver` is called and from whichever threads.
final class MainQueueOnce<Value: Sendable>: Sendable {
    private let callback: Locked<(@MainActor @Sendable (Value) -> Void)?>

    /// Wraps the callback; a nil callback makes `deliver` a no-op apart from the bookkeeping.
    init(_ callback: (@MainActor @Sendable (Value) -> Void)?) {
        self.callback = Locked(callback ?? { _ in })
    }

    /// Whether a value has been delivered (or is on its way).
    var isDelivered: Bool { callback.withLock { $0 == nil } }

    /// Schedules the callback with `value` on the main queue; later calls do nothing.
    /// Returns whether this call was the one that delivered.
    @discardableResult
    func deliver(_ value: Value) -> Bool {
        let taken = callback.withLock { slot in
            let taken = slot
            slot = nil
            return taken
        }
        guard let taken else { return false }
        DispatchQueue.main.async {
            dispatchPrecondition(condition: .onQueue(.main))
            MainActor.assumeIsolated { taken(value) }
        }
        return true
    }
}

/// Reports download progress to a callback on the main queue as a percentage that only rises,
/// stays within 0…100, and stops once the operation's completion has been scheduled.
final class ProgressReporter: Sendable {
    private struct State {
        var callback: (@MainActor @Sendable (Double) -> Void)?
        var lastReported: Double = -1
    }

    private let state: Locked<State>
    /// The smallest rise, in percentage points, that is worth a callback (except the final 100).
    private let step: Double

    /// Wraps the callback; nil reports nothing.
    init(_ callback: (@MainActor @Sendable (Double) -> Void)?, step: Double = 0.1) {
        self.state = Locked(State(callback: callback))
        self.step = step
    }

    /// Reports `done` of `total` bytes; ignored when not higher than what was reported.
    func report(done: UInt64, of total: UInt64) {
        let percent = total == 0 ? 100 : min(100, Double(done) / Double(total) * 100)
        report(percent: percent)
    }

    /// Reports a percentage; values below the last one (or not enough above it) are dropped.
    func report(percent: Double) {
        let value = min(100, max(0, percent))
        let callback: (@MainActor @Sendable (Double) -> Void)? = state.withLock { state in
            guard let callback = state.callback else { return nil }
            let due = state.lastReported < 0 || value >= state.lastReported + step
                || (value == 100 && state.lastReported < 100)
            guard due else { return nil }
            state.lastReported = value
            return callback
        }
        guard let callback else { return }
        DispatchQueue.main.async {
            MainActor.assumeIsolated { callback(value) }
        }
    }

    /// Stops reporting; call before scheduling the completion so no progress follows it.
    func finish() {
        state.withLock { $0.callback = nil }
    }
}
