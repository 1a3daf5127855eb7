import AIBudsSync
import Dispatch
import Foundation

/// A thread-safe list of values that callbacks append to.
final class Recorder<Value: Sendable>: Sendable {
    private let storage = Locked<[Value]>([])

    /// Appends a value.
    func append(_ value: Value) { storage.withLock { $0.append(value) } }

    /// Removes and returns everything appended so far.
    func drain() -> [Value] {
        storage.withLock { values in
            defer { values = [] }
            return values
        }
    }

    /// Everything appended so far.
    var values: [Value] { storage.withLock { $0 } }
}

/// Returns once the main queue has run everything that was queued on it before the call.
func drainMainQueue() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        DispatchQueue.main.async { continuation.resume() }
    }
}
