import Foundation

/// The newest of a series of values, numbered, for threads that wait for the next one (a viewer
/// that falls behind skips to the newest).
final class LatestValue<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var number: UInt64 = 0
    private var value: Value?
    private var closed = false

    func publish(_ value: Value) {
        condition.lock()
        number += 1
        self.value = value
        condition.broadcast()
        condition.unlock()
    }

    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// The newest value after number `after`, waiting up to `timeout`; nil once closed or timed out.
    func next(after: UInt64, timeout: TimeInterval = 1) -> (UInt64, Value)? {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !closed, number <= after || value == nil {
            guard condition.wait(until: deadline) else { return nil }
        }
        guard !closed, let value else { return nil }
        return (number, value)
    }

    var isClosed: Bool {
        condition.lock()
        defer { condition.unlock() }
        return closed
    }
}
