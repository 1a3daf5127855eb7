import Foundation
import Synchronization

/// Runs long synchronous work on a thread of its own, so it never occupies Swift's cooperative
/// pool; cancelling the awaiting task raises the flag the work polls.
public enum DedicatedThread {
    /// The result of `work`, which receives a "should stop" probe that turns true once the caller's
    /// task is cancelled.
    public static func run<T: Sendable>(
        name: String, _ work: @escaping @Sendable (_ shouldStop: @escaping @Sendable () -> Bool) throws -> T
    ) async throws -> T {
        let stop = StopFlag()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                let thread = Thread {
                    do { continuation.resume(returning: try work { stop.isRaised }) } catch { continuation.resume(throwing: error) }
                }
                thread.name = name
                thread.stackSize = 8 << 20
                thread.start()
            }
        } onCancel: {
            stop.raise()
        }
    }
}

/// A one-way flag shared by a task and the thread it waits for.
final class StopFlag: Sendable {
    private let raised = Atomic<Bool>(false)
    /// Whether ``raise()`` was called.
    var isRaised: Bool { raised.load(ordering: .acquiring) }
    /// Asks the work to stop.
    func raise() { raised.store(true, ordering: .releasing) }
}
