import Dispatch

/// Runs commits (`fsync` + rename) beside the downloads, at most `width` at once, so that the
/// disk's latency overlaps the next transfers; submitting waits while `width` are in flight.
final class CommitQueue: Sendable {
    private let queue = DispatchQueue(label: "aibuds.transfer.commit", attributes: .concurrent)
    private let slots: DispatchSemaphore
    private let group = DispatchGroup()

    init(width: Int) {
        slots = DispatchSemaphore(value: max(1, width))
    }

    /// Commits in the background, then calls `completion` with the outcome.
    func submit(_ pending: PendingCommit, completion: @escaping @Sendable (Result<Void, TransferError>) -> Void) {
        slots.wait()
        group.enter()
        queue.async { [self] in
            let result: Result<Void, TransferError>
            do {
                try pending.commit(syncDirectory: false)
                result = .success(())
            } catch {
                result = .failure(error as? TransferError ?? TransferError(.localFileError, "\(error)", underlying: error))
            }
            slots.signal()
            completion(result)
            group.leave()
        }
    }

    /// Waits until every submitted commit has completed.
    func waitUntilDone() { group.wait() }
}
