#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value that threads share, reached only while holding its lock: the project's one lock.
///
/// It has the shape of the standard library's `Mutex` (`withLock`), but locks with a
/// `pthread_mutex_t`. On Linux, `Synchronization.Mutex` locks through futex calls inside an
/// uninstrumented runtime shim, so Thread Sanitizer sees no lock and reports every access it guards
/// as a race; it sees a pthread mutex. The lock is not recursive: calling `withLock` on the same
/// value from inside its own body deadlocks.
public final class Locked<Value>: @unchecked Sendable {
    /// The guarded value, on the heap of its own and reached through the pointer: a stored
    /// property of a zero-sized type (`Locked<Void>`) would make Thread Sanitizer report the
    /// object's header as raced. Touched only while `mutex` is held.
    @usableFromInline let storage: UnsafeMutablePointer<Value>
    /// The lock, on the heap because a pthread mutex must not move once initialized.
    @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

    /// Starts guarding `value`; from now on it is reached only through ``withLock(_:)``.
    public init(_ value: consuming sending Value) {
        storage = .allocate(capacity: 1)
        storage.initialize(to: value)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        let status = pthread_mutex_init(mutex, nil)
        precondition(status == 0, "pthread_mutex_init failed with \(status)")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        storage.deinitialize(count: 1)
        storage.deallocate()
    }

    /// Runs `body` with exclusive access to the value, blocking until no other thread holds it,
    /// and returns what `body` returns. Keep `body` short and free of waits: every other thread
    /// that needs the value waits for it.
    @inlinable
    public func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&storage.pointee)
    }
}
