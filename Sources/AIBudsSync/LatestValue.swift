import Foundation

/// The newest of a series of values, numbered, for threads that wait for the next one: a reader
/// that falls behind skips to the newest (a viewer shows the latest frame, never a backlog), and
/// the values it skipped are counted. The one latest-value slot of the project.
public final class LatestValue<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var number: UInt64 = 0
    private var value: Value?
    private var closed = false
    private var skippedCount = 0

    /// An empty slot.
    public init() {}

    /// Makes `value` the newest, numbered one more than the last, and wakes the readers.
    public func publish(_ value: Value) {
        condition.lock()
        number += 1
        self.value = value
        condition.broadcast()
        condition.unlock()
    }

    /// Ends the series: waiting and later readers get nil.
    public func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// The newest value after number `after` with its number, waiting up to `timeout` seconds
    /// (nil: as long as it takes); nil once closed or timed out. Values between `after` and the
    /// newest count as skipped.
    public func next(after: UInt64, timeout: TimeInterval? = 1) -> (UInt64, Value)? {
        condition.lock()
        defer { condition.unlock() }
        let deadline = timeout.map { Date(timeIntervalSinceNow: $0) }
        while !closed, number <= after || value == nil {
            if let deadline {
                guard condition.wait(until: deadline) else { return nil }
            } else {
                condition.wait()
            }
        }
        guard !closed, let value else { return nil }
        if after > 0, number > after + 1 { skippedCount += Int(number - after - 1) }
        return (number, value)
    }

    /// Whether ``close()`` was called.
    public var isClosed: Bool {
        condition.lock()
        defer { condition.unlock() }
        return closed
    }

    /// How many values readers skipped because newer ones had arrived.
    public var skipped: Int {
        condition.lock()
        defer { condition.unlock() }
        return skippedCount
    }
}
