import AIBudsFoundation

/// Runs `operation`, throwing `error` if it has not finished within `timeout` (the operation is then
/// cancelled).
public func withTimeout<Value: Sendable>(
    _ timeout: Duration, error: @autoclosure @escaping @Sendable () -> AIBudsError,
    _ operation: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    try await withThrowingTaskGroup(of: Value.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: timeout)
            throw error()
        }
        defer { group.cancelAll() }
        guard let value = try await group.next() else { throw CancellationError() }
        return value
    }
}
