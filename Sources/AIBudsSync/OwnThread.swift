import Foundation
import Synchronization

// The one way this project runs blocking work (a synchronous connect, a blocking read, a libcurl
// transfer, a speech engine, a video encode) without holding one of Swift concurrency's threads:
// on Linux the cooperative pool has one thread per core and adds none when one blocks.

/// Runs blocking `body` on a thread of its own, named `name` (with a stack of `stackSize` bytes
/// when given), and returns its result while the caller suspends.
///
/// The result crosses to the caller through a ``Locked``: Thread Sanitizer did not see the
/// hand-over through the continuation alone and reported a libdbus connection made on the thread
/// and used by the caller as raced.
public func runOnOwnThread<T: Sendable>(name: String, stackSize: Int? = nil, _ body: @escaping @Sendable () -> T) async -> T {
    let box = Locked<T?>(nil)
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let thread = Thread {
            let value = body()
            box.withLock { $0 = value }
            continuation.resume()
        }
        thread.name = name
        if let stackSize { thread.stackSize = stackSize }
        thread.start()
    }
    return box.withLock { $0! }
}

/// Runs blocking, throwing `body` on a thread of its own (see ``runOnOwnThread(name:stackSize:_:)``);
/// cancelling the awaiting task raises the ``CancelFlag`` that `body` receives, which long work
/// polls (a transfer's progress callback, an encoder's frame loop) to stop early.
public func runOnOwnThread<T: Sendable>(
    name: String, stackSize: Int? = nil, _ body: @escaping @Sendable (_ cancel: CancelFlag) throws -> T
) async throws -> T {
    let cancel = CancelFlag()
    return try await withTaskCancellationHandler {
        try await runOnOwnThread(name: name, stackSize: stackSize) { Result { try body(cancel) } }.get()
    } onCancel: {
        cancel.raise()
    }
}

/// A one-way flag between a task and the work it waits for: raised once, seen from any thread.
public final class CancelFlag: Sendable {
    private let raised = Atomic<Bool>(false)

    /// Creates a flag that is not raised.
    public init() {}

    /// Whether ``raise()`` was called.
    public var isRaised: Bool { raised.load(ordering: .acquiring) }

    /// Asks the work to stop; later calls change nothing.
    public func raise() { raised.store(true, ordering: .releasing) }
}
