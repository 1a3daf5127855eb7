import AIBudsFoundation
import AIBudsLog
import AIBudsSync

/// Records an import's verified files in its ledger a group at a time: one write per
/// `groupSize` files instead of one per file; ``flush()`` records the rest when the transfers
/// end. A file committed but not yet recorded when the process dies is still recognised by a later
/// import (same name, size and SHA-256 in the folder), which then records it.
final class LedgerWriter: Sendable {
    private let ledger: ImportLedger
    private let groupSize: Int
    private let logger: any LogService
    private let pending = Locked<[ImportLedgerEntry]>([])
    private let failure: LedgerFailure

    /// Creates a writer for `ledger`; its first failed write goes to `failure`.
    init(ledger: ImportLedger, groupSize: Int = 64, logger: any LogService, failure: LedgerFailure = LedgerFailure()) {
        self.ledger = ledger
        self.groupSize = max(1, groupSize)
        self.logger = logger
        self.failure = failure
    }

    /// Adds one entry; records the group when it is full.
    func add(_ entry: ImportLedgerEntry) {
        let group: [ImportLedgerEntry]? = pending.withLock { pending in
            pending.append(entry)
            guard pending.count >= groupSize else { return nil }
            defer { pending.removeAll(keepingCapacity: true) }
            return pending
        }
        if let group { write(group) }
    }

    /// Records every entry not recorded yet.
    func flush() {
        let group = pending.withLock { pending in
            defer { pending.removeAll() }
            return pending
        }
        if !group.isEmpty { write(group) }
    }

    private func write(_ group: [ImportLedgerEntry]) {
        do {
            try ledger.record(contentsOf: group)
        } catch {
            let cause = AIBudsError.from(error)
            logger.log(.error, "import", "could not record \(group.count) files in the import ledger: \(cause.message)")
            failure.record(AIBudsError(
                .importFilesFailedDueToLocalFileError,
                "the import ledger \(ledger.fileURL.path) could not record \(group.count) imported files: \(cause.message)", underlying: error))
        }
    }
}

/// The first failed write of an import's ledger, kept for the import's result
/// (`MediaImportResult.ledgerError`): a ledger that silently misses files misleads `--new`.
final class LedgerFailure: Sendable {
    private let error = Locked<AIBudsError?>(nil)

    /// The first failure, if any.
    var first: AIBudsError? { error.withLock { $0 } }

    /// Keeps `failure` unless one is kept already.
    func record(_ failure: AIBudsError) { error.withLock { $0 = $0 ?? failure } }
}
