import AIBudsSync

/// A clock whose time moves only when a test advances it, so that timeouts and delays are
/// deterministic.
///
/// Tasks that sleep on it are resumed by `advance(by:)` in deadline order (ties in the order they
/// began sleeping). Actions scheduled with `schedule(after:_:)` run synchronously inside `advance`,
/// in the same order, which lets a test kit deliver delayed datagrams deterministically.
/// Cancelling a sleeping task resumes it at once with `CancellationError`.
public final class ManualClock: Clock, Sendable {
    /// A point in manual time: the duration since the clock was created.
    public struct Instant: InstantProtocol, Sendable, CustomStringConvertible {
        /// Time since the clock's start.
        public var offset: Duration

        /// Creates an instant at `offset` after the clock's start.
        public init(offset: Duration) { self.offset = offset }

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }

        /// The duration from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }

        /// Orders instants by time.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }

        /// The offset, for test failure messages.
        public var description: String { "t+\(offset)" }
    }

    private enum Wakeup {
        case sleeper(CheckedContinuation<Void, any Error>)
        case action(@Sendable () -> Void)
    }

    private struct Entry {
        var id: UInt64
        var deadline: Instant
        var wakeup: Wakeup
    }

    private struct State {
        var now = Instant(offset: .zero)
        var nextID: UInt64 = 0
        var entries: [Entry] = []
        /// Sleepers that have an id but have not stored their continuation yet, and whether they
        /// were cancelled in that window.
        var unregistered: [UInt64: Bool] = [:]
        var sleeperWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

        var sleeperCount: Int {
            entries.reduce(0) { count, entry in
                if case .sleeper = entry.wakeup { return count + 1 }
                return count
            }
        }

        /// Removes the waiters whose sleeper count has been reached.
        mutating func takeSatisfiedWaiters() -> [CheckedContinuation<Void, Never>] {
            let count = sleeperCount
            let ready = sleeperWaiters.filter { $0.count <= count }
            sleeperWaiters.removeAll { $0.count <= count }
            return ready.map(\.continuation)
        }
    }

    private let state = Locked(State())

    /// Creates a clock at time zero.
    public init() {}

    /// The current manual time.
    public var now: Instant { state.withLock { $0.now } }

    /// The smallest step: none, manual time is exact.
    public var minimumResolution: Duration { .zero }

    /// How many tasks are sleeping on the clock right now.
    public var sleeperCount: Int { state.withLock { $0.sleeperCount } }

    /// Suspends until the clock has been advanced to `deadline`; returns at once if it is there already.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let id: UInt64? = state.withLock { state in
            guard deadline > state.now else { return nil }
            state.nextID += 1
            state.unregistered[state.nextID] = false
            return state.nextID
        }
        guard let id else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (cancelled, satisfied) = state.withLock { state -> (Bool, [CheckedContinuation<Void, Never>]) in
                    if state.unregistered.removeValue(forKey: id) == true { return (true, []) }
                    state.entries.append(Entry(id: id, deadline: deadline, wakeup: .sleeper(continuation)))
                    return (false, state.takeSatisfiedWaiters())
                }
                if cancelled { continuation.resume(throwing: CancellationError()) }
                for waiter in satisfied { waiter.resume() }
            }
        } onCancel: {
            let continuation: CheckedContinuation<Void, any Error>? = state.withLock { state in
                guard let index = state.entries.firstIndex(where: { $0.id == id }) else {
                    if state.unregistered[id] != nil { state.unregistered[id] = true }
                    return nil
                }
                let entry = state.entries.remove(at: index)
                if case .sleeper(let continuation) = entry.wakeup { return continuation }
                return nil
            }
            continuation?.resume(throwing: CancellationError())
        }
    }

    /// Runs `action` when the clock reaches now + `delay` (inside the `advance` call that gets there).
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) {
        state.withLock { state in
            state.nextID += 1
            state.entries.append(Entry(id: state.nextID, deadline: state.now.advanced(by: delay), wakeup: .action(action)))
        }
    }

    /// Moves time forward by `duration`, waking sleepers and running scheduled actions whose deadline
    /// is reached, in deadline order; each sees `now` at its own deadline.
    public func advance(by duration: Duration) {
        let target = now.advanced(by: duration)
        advance(to: target)
    }

    /// Moves time forward to `target` (never backwards); see `advance(by:)`.
    public func advance(to target: Instant) {
        while true {
            let wakeup: Wakeup? = state.withLock { state in
                let due = state.entries.indices.filter { state.entries[$0].deadline <= target }
                guard let first = due.min(by: { lhs, rhs in
                    let (a, b) = (state.entries[lhs], state.entries[rhs])
                    return a.deadline == b.deadline ? a.id < b.id : a.deadline < b.deadline
                }) else {
                    if target > state.now { state.now = target }
                    return nil
                }
                let entry = state.entries.remove(at: first)
                if entry.deadline > state.now { state.now = entry.deadline }
                return entry.wakeup
            }
            switch wakeup {
            case nil: return
            case .sleeper(let continuation)?: continuation.resume()
            case .action(let action)?: action()
            }
        }
    }

    /// Suspends until at least `count` tasks are sleeping on the clock, so a test can advance time
    /// knowing the code under test has reached its timers.
    public func waitForSleepers(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.sleeperCount >= count { return true }
                state.sleeperWaiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
