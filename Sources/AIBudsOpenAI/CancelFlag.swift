import AIBudsSync

/// A flag a task's cancellation sets and a libcurl callback reads.
final class CancelFlag: Sendable {
    private let flag = Locked(false)
    /// Whether it was raised.
    var isRaised: Bool { flag.withLock { $0 } }
    /// Raises it.
    func raise() { flag.withLock { $0 = true } }
}
