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

    /// Creates a writer for `ledger`.
    init(ledger: ImportLedger, groupSize: Int = 64, logger: any LogService) {
        self.ledger = ledger
        self.groupSize = max(1, groupSize)
        self.logger = logger
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
            logger.log(.warning, "import", "could not record \(group.count) files in the import ledger: \(error)")
        }
    }
}
