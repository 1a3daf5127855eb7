import Synchronization

/// Holds a value that can be taken exactly once, from any thread.
///
/// The callback layer wraps each completion handler in one, so that whichever path finishes an
/// operation first (its end, a cancellation, an early rejection) delivers it and every later path
/// finds it gone.
final class ExactlyOnce<Value: Sendable>: Sendable {
    private let storage: Mutex<Value?>

    /// Stores `value` for one `take()`.
    init(_ value: Value) { storage = Mutex(value) }

    /// Returns the value the first time and `nil` ever after.
    func take() -> Value? { storage.withLock { stored in defer { stored = nil }; return stored } }
}
