import AIBudsLog
import Dispatch
import Foundation
import Synchronization

/// Computes the SHA-256 of a store's files on one background thread, so that the Media list can
/// carry them: every listed file of at most `maximumSize` bytes, in name order, then each file
/// that a change adds. Started and stopped by ``MediaStore``.
public final class MediaDigestIndexer: Sendable {
    /// The largest file indexed by default (1 GiB): bigger ones are hashed only on request.
    public static let defaultMaximumSize: UInt64 = 1 << 30

    private weak let store: MediaStore?
    private let maximumSize: UInt64
    private let logger: any LogService
    private let wakeup = DispatchSemaphore(value: 0)
    private let stopped = Atomic<Bool>(false)

    init(store: MediaStore, maximumSize: UInt64, logger: any LogService) {
        self.store = store
        self.maximumSize = maximumSize
        self.logger = logger
    }

    /// Starts the thread.
    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "aibuds-emulator-digests"
        thread.start()
    }

    /// Asks for another pass (the list changed).
    func wake() { wakeup.signal() }

    /// Ends the thread after the file it is hashing.
    func stop() {
        stopped.store(true, ordering: .releasing)
        wakeup.signal()
    }

    private var isStopped: Bool { stopped.load(ordering: .acquiring) }

    private func run() {
        let clock = ContinuousClock()
        while !isStopped {
            let work = store?.recordsToIndex(maximumSize: maximumSize) ?? []
            if work.isEmpty {
                if store == nil { return }
                wakeup.wait()
                continue
            }
            let start = clock.now
            var bytes: UInt64 = 0
            for record in work where !isStopped {
                guard let store else { return }
                store.index(record)
                bytes += record.size
            }
            logger.log(.debug, "emulator", "hashed \(work.count) files (\(bytes) bytes) for the media list in \(clock.now - start)")
        }
    }
}
