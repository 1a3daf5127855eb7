import Foundation

/// Runs blocking work (a libcurl transfer, a speech engine, a child process) on a thread of its
/// own, so Swift concurrency's few threads are never held by it.
public enum AIBlockingWork {
    /// Runs `body` on a new thread and returns its result.
    public static func run<T: Sendable>(_ name: String, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let thread = Thread { continuation.resume(with: Result { try body() }) }
            thread.name = name
            thread.start()
        }
    }
}
