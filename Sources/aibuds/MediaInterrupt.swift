import AIBudsSync
import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Ctrl-C during a media command: the first cancels cleanly (partial downloads stay, so the next run
/// resumes), a second one exits at once.
final class MediaInterrupt: Sendable {
    private let count = Locked(0)
    private nonisolated(unsafe) var source: (any DispatchSourceSignal)?

    /// Starts catching SIGINT; `cancel` runs on the first one.
    init(cancel: @escaping @Sendable () -> Void) {
        let count = self.count
        source = SignalWatch.watch(SIGINT, queue: .global()) {
            let seen = count.withLock { value -> Int in
                value += 1
                return value
            }
            if seen == 1 {
                CLI.printError("cancelling… (press Ctrl-C again to stop at once)")
                cancel()
            } else {
                CLI.printError("stopped")
                exit(130)
            }
        }
    }

    /// Whether Ctrl-C was pressed.
    var wasInterrupted: Bool { count.withLock { $0 > 0 } }

    /// Stops catching SIGINT (the signal's action is left alone: see `SignalWatch`).
    func remove() {
        source?.cancel()
    }
}
