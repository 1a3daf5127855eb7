import AIBudsNet
import AIBudsSync
import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Makes finished files durable and renames them into place on its own thread, beside the
/// downloads, by group commit: a group gathers the files that finish within `gatherWindow` of its
/// first one (or until `groupSize` wait, or `stop` says no more come), and a group of several
/// files is made durable with one `syncfs(2)` of their file system instead of one `fsync` each (a
/// lone file gets its `fsync`). Every file's bytes are durable before its final name appears, as
/// with per-file `fsync`. The committer sleeps through the window instead of waking for each file.
///
/// The window matters on a shared disk: `syncfs` writes back every dirty page of the file system,
/// other programs' too, so a committer that synced as soon as one file was ready did so hundreds
/// of times for 2,000 small files (measured with `strace`), each time paying for everyone's writes.
///
/// Up to `maxPending` files may wait, twice a group: the next group gathers while one commits.
/// When a group could take every slot, the downloads stopped for each group's `syncfs` and renames
/// (measured: workers waited for a slot for ~1,700 of 2,000 small files).
final class CommitQueue: Sendable {
    private typealias Completion = @Sendable (Result<Void, TransferError>) -> Void
    private struct State {
        var pending: [(PendingCommit, Completion)] = []
        var stopped = false
        /// The committer waits for a first file: the next submit wakes it.
        var idle = false
        /// The committer gathers a group: a submit that fills the queue wakes it.
        var gathering = false
    }

    private let state = Locked(State())
    /// Wakes the committer: for a first file, a full queue, or `stop`. Submits signal it only
    /// when the committer waits for that, so a group of files costs one wake-up, not one each.
    private let wake = DispatchSemaphore(value: 0)
    /// Bounds the files waiting (each holds an open descriptor).
    private let slots: DispatchSemaphore
    /// The files that make a group ready before its window ends: half of the slots.
    private let groupSize: Int
    private let gatherWindow: DispatchTimeInterval

    typealias SyncFS = @convention(c) (Int32) -> Int32
    /// Linux's `syncfs`, looked up at run time because Glibc's Swift module hides it.
    static let syncfs: SyncFS? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "syncfs").map { unsafeBitCast($0, to: SyncFS.self) }
    private let linked = Atomic(false)

    /// Whether unnamed files were linked into place: their new link counts are made durable by the
    /// next group's `syncfs`, and after the last group by the batch's final sync
    /// (`FileRenamer.finishDestination(_:syncsFileSystem:)`).
    var linkedUnnamedFiles: Bool { linked.load(ordering: .acquiring) }

    init(maxPending: Int, gatherWindow: DispatchTimeInterval = .milliseconds(20)) {
        groupSize = max(1, maxPending / 2)
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
        let wakes = state.withLock { state -> Bool in
            state.pending.append((pending, completion))
            if state.idle {
                state.idle = false
                return true
            }
            if state.gathering, state.pending.count >= groupSize {
                state.gathering = false
                return true
            }
            return false
        }
        if wakes { wake.signal() }
    }

    /// Says no more files come: the committer commits what waits at once, then ends.
    func stop() {
        state.withLock { $0.stopped = true }
        wake.signal()
    }

    private func run() {
        while true {
            // Wait for a first file. (A wake-up left over from an earlier phase only makes a loop
            // go round early: every wait re-checks the state.)
            let waits = state.withLock { state -> Bool in
                state.idle = state.pending.isEmpty && !state.stopped
                return state.idle
            }
            if waits {
                wake.wait()
                state.withLock { $0.idle = false }
            }
            // Let the group grow: the files that finish within the window, up to `groupSize`,
            // unless stopped.
            let deadline = DispatchTime.now() + gatherWindow
            while true {
                let ready = state.withLock { state -> Bool in
                    state.gathering = !(state.pending.count >= groupSize || state.stopped)
                    return !state.gathering
                }
                if ready || wake.wait(timeout: deadline) == .timedOut { break }
            }
            let (group, stopped) = state.withLock { state in
                state.gathering = false
                defer { state.pending.removeAll() }
                return (state.pending, state.stopped)
            }
            if !group.isEmpty { commit(group) }
            if stopped, group.isEmpty { return }
        }
    }

    private func commit(_ group: [(PendingCommit, Completion)]) {
        if !linkedUnnamedFiles, group.contains(where: { $0.0.isUnnamed }) { linked.store(true, ordering: .releasing) }
        var synced = false
        if group.count > 1, let syncfs = CommitQueue.syncfs {
            // One syncfs per destination folder in the group (each file's partial file lives in
            // its destination's `.partial/`, on the destination's file system).
            var destinations: [String: Int32] = [:]
            for (pending, _) in group where destinations[pending.paths.destination] == nil {
                destinations[pending.paths.destination] = pending.descriptor
            }
            synced = destinations.values.allSatisfy { descriptor in
                if case .success = SystemCall.result("syncfs", { syncfs(descriptor) }) { true } else { false }
            }
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
