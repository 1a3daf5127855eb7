import AIBudsSync

/// A result that is set exactly once and can be awaited by any number of waiters.
///
/// The first ``resolve(_:)`` wins; later ones return `false` and change nothing. Waiters are resumed
/// outside the lock. A waiting task that is cancelled gets `CancellationError` without resolving it.
public final class OneShot<Value: Sendable>: Sendable {
    private struct State {
        var result: Result<Value, any Error>?
        var waiters: [UInt64: CheckedContinuation<Value, any Error>] = [:]
        var nextWaiter: UInt64 = 0
    }

    private let state = Locked(State())

    /// Creates an unresolved value.
    public init() {}

    /// Whether the value has been resolved.
    public var isResolved: Bool { state.withLock { $0.result != nil } }

    /// The result, when it has been resolved.
    public var result: Result<Value, any Error>? { state.withLock { $0.result } }

    /// Sets the result if it is not set yet; returns whether this call set it.
    @discardableResult
    public func resolve(_ result: Result<Value, any Error>) -> Bool {
        let waiters: [CheckedContinuation<Value, any Error>]? = state.withLock { state in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        guard let waiters else { return false }
        for waiter in waiters { waiter.resume(with: result) }
        return true
    }

    /// Sets a value if none is set yet.
    @discardableResult
    public func succeed(_ value: Value) -> Bool { resolve(.success(value)) }

    /// Sets an error if no result is set yet.
    @discardableResult
    public func fail(_ error: any Error) -> Bool { resolve(.failure(error)) }

    /// Waits for the result.
    public func value() async throws -> Value {
        let id = state.withLock { state -> UInt64 in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let ready: Result<Value, any Error>? = state.withLock { state in
                    if let result = state.result { return result }
                    if Task.isCancelled { return .failure(CancellationError()) }
                    state.waiters[id] = continuation
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume(throwing: CancellationError())
        }
    }
}
