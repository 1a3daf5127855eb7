import Foundation

/// Runs blocking `body` (a synchronous connect, a blocking read) on a thread of its own, named
/// `name`, and returns its result while the caller suspends without holding one of Swift
/// concurrency's threads.
///
/// The result crosses to the caller through a ``Locked``: Thread Sanitizer did not see the
/// hand-over through the continuation alone and reported a libdbus connection made on the thread
/// and used by the caller as raced.
public func runOnOwnThread<T: Sendable>(name: String, _ body: @escaping @Sendable () -> T) async -> T {
    let box = Locked<T?>(nil)
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let thread = Thread {
            let value = body()
            box.withLock { $0 = value }
            continuation.resume()
        }
        thread.name = name
        thread.start()
    }
    return box.withLock { $0! }
}
