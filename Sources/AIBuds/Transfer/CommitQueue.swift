import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Makes finished files durable and renames them into place on its own thread, beside the
/// downloads, by group commit: a group gathers the files that finish within `gatherWindow` of its
/// first one (or until `maxPending` wait), and a group of several files is made durable with one
/// `syncfs(2)` of their file system instead of one `fsync` each (a lone file gets its `fsync`).
/// Every file's bytes are durable before its final name appears, as with per-file `fsync`.
///
/// The window matters on a shared disk: `syncfs` writes back every dirty page of the file system,
/// other programs' too, so a committer that synced as soon as one file was ready did so hundreds
/// of times for 2,000 small files (measured with `strace`), each time paying for everyone's writes.
final class CommitQueue: Sendable {
    private typealias Completion = @Sendable (Result<Void, TransferError>) -> Void
    private struct State {
        var pending: [(PendingCommit, Completion)] = []
        var stopped = false
    }

    private let state = Mutex(State())
    /// Counts pending commits, so the committer sleeps while there are none.
    private let available = DispatchSemaphore(value: 0)
    /// Bounds the files waiting (each holds an open descriptor).
    private let slots: DispatchSemaphore
    private let maxPending: Int
    private let gatherWindow: DispatchTimeInterval

    private typealias SyncFS = @convention(c) (Int32) -> Int32
    /// Linux's `syncfs`, looked up at run time because Glibc's Swift module hides it.
    private static let syncfs: SyncFS? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "syncfs").map { unsafeBitCast($0, to: SyncFS.self) }

    init(maxPending: Int, gatherWindow: DispatchTimeInterval = .milliseconds(20)) {
        self.maxPending = max(1, maxPending)
        self.gatherWindow = gatherWindow
        slots = DispatchSemaphore(value: max(1, maxPending))
        let thread = Thread { [self] in run() }
        thread.name = "aibuds-commit"
        thread.start()
    }

    /// Commits in the background, then calls `completion`; waits while `maxPending` commits are
    /// queued.
    func submit(_ pending: PendingCommit, completion: @escaping @Sendable (Result<Void, TransferError>) -> Void) {
        slots.wait()
        state.withLock { $0.pending.append((pending, completion)) }
        available.signal()
    }

    /// Lets the committer thread end once the queue is empty.
    func stop() {
        state.withLock { $0.stopped = true }
        available.signal()
    }

    private func run() {
        while true {
            available.wait()
            // Let the group grow: more files within the window, up to `maxPending`, unless stopped.
            var counted = 1
            let deadline = DispatchTime.now() + gatherWindow
            while counted < maxPending, !state.withLock({ $0.stopped }), available.wait(timeout: deadline) == .success {
                counted += 1
            }
            let (group, stopped) = state.withLock { state in
                defer { state.pending.removeAll() }
                return (state.pending, state.stopped)
            }
            // The semaphore counted every item (and `stop` once); take the counts not yet taken.
            for _ in counted..<max(counted, group.count) { available.wait() }
            if !group.isEmpty { commit(group) }
            if stopped { return }
        }
    }

    private func commit(_ group: [(PendingCommit, Completion)]) {
        var synced = false
        if group.count > 1, let syncfs = CommitQueue.syncfs {
            // One syncfs per file system in the group.
            var devices: [UInt: Int32] = [:]
            for (pending, _) in group {
                var info = stat()
                if fstat(pending.descriptor, &info) == 0 { devices[UInt(info.st_dev)] = pending.descriptor }
            }
            synced = devices.count > 0 && devices.values.allSatisfy { syncfs($0) == 0 }
        }
        for (pending, completion) in group {
            let result: Result<Void, TransferError>
            do {
                if synced { try pending.rename(syncDirectory: false) } else { try pending.commit(syncDirectory: false) }
                result = .success(())
            } catch {
                result = .failure(error as? TransferError ?? TransferError(.localFileError, "\(error)", underlying: error))
            }
            slots.signal()
            completion(result)
        }
    }
}
