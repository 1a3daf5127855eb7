import AIBuds
import AIBudsFoundation
import AIBudsSync
import Foundation

/// Records the callbacks of the vendor's completion-handler APIs by name, in order, from any
/// queue, and waits for the one that completes the call.
public final class CallRecorder: Sendable {
    private let state = Locked<(names: [String], completion: NSError??)>(([], nil))
    private let done = OneShot<NSError?>()

    /// Creates a recorder with no callback yet.
    public init() {}

    /// Every callback so far.
    public var names: [String] { state.withLock { $0.names } }

    /// Records one callback.
    public func record(_ name: String) { state.withLock { $0.names.append(name) } }

    /// Records the completion and its error.
    public func complete(_ name: String, _ error: NSError?) {
        record(name)
        done.succeed(error)
    }

    /// Waits for the completion; returns its error (fails the test when there is none).
    @discardableResult
    public func waitForCompletion(timeout: Duration = .seconds(30)) async throws -> NSError {
        guard let error = try await waitForAnyCompletion(timeout: timeout) else {
            throw AIBudsError(.unknown, "the operation succeeded; \(names)")
        }
        return error
    }

    /// Waits for the completion; returns its error or `nil`.
    public func waitForAnyCompletion(timeout: Duration = .seconds(30)) async throws -> NSError? {
        try await withThrowingTaskGroup(of: NSError?.self) { group in
            group.addTask { try await self.done.value() }
            group.addTask {
                try await Task.sleep(for: timeout)
                throw AIBudsError(.unknown, "no completion within \(timeout); calls: \(self.names)")
            }
            defer { group.cancelAll() }
            return try await group.next()!
        }
    }
}
