import AIBudsFoundation
import AIBudsSync

/// The calls running on one device's connection, so that a disconnection ends every one of them.
///
/// ``run(_:)`` registers a call and waits for its result; ``closeAll(_:)`` fails every registered call
/// with the given error at once (and cancels its work), and fails later calls until ``reopen()``.
public final class InFlightCalls: Sendable {
    private struct State {
        var closedError: (any Error)? = AIBudsError(.deviceNotConnected)
        var next: UInt64 = 0
        var entries: [UInt64: @Sendable (any Error) -> Void] = [:]
    }

    private let state = Locked(State())

    /// Creates a closed registry (calls fail with `deviceNotConnected` until ``reopen()``).
    public init() {}

    /// How many calls are running.
    public var count: Int { state.withLock { $0.entries.count } }

    /// Accepts calls again.
    public func reopen() {
        state.withLock { $0.closedError = nil }
    }

    /// Fails every running call with `error`, and every later call until ``reopen()``.
    public func closeAll(_ error: any Error) {
        let entries = state.withLock { state in
            state.closedError = error
            defer { state.entries.removeAll() }
            return Array(state.entries.values)
        }
        for fail in entries { fail(error) }
    }

    /// Runs `operation` as a registered call: it ends with the operation's result, or with the error of
    /// ``closeAll(_:)`` if that comes first (the operation is then cancelled).
    public func run<Value: Sendable>(_ operation: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let shot = OneShot<Value>()
        let id: UInt64 = try state.withLock { state in
            if let error = state.closedError { throw error }
            state.next += 1
            state.entries[state.next] = { error in shot.fail(error) }
            return state.next
        }
        defer { _ = state.withLock { $0.entries.removeValue(forKey: id) } }
        let task = Task {
            do {
                shot.succeed(try await operation())
            } catch {
                shot.fail(error)
            }
        }
        return try await withTaskCancellationHandler {
            do {
                return try await shot.value()
            } catch {
                task.cancel()
                throw error
            }
        } onCancel: {
            task.cancel()
        }
    }
}
