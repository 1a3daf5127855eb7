import AIBudsSync
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One import at a time into a folder, across processes: an advisory `flock` on
/// `<folder>/.aibuds/lock`, held while an import runs.
///
/// A second import into the same folder waits until the first has ended (the lock goes with its
/// process, however it ends, `kill -9` included) and then finds the files the first imported. The
/// lock is shared within a process: `aibuds media import` takes it before it talks to the device,
/// and the import engine, which takes it too for callers that do not, gets it at once.
public final class ImportDestinationLock: Sendable {
    /// The folder this lock is held for (standardized).
    public let folder: URL
    private let key: String

    /// The descriptor and number of holders of each folder locked by this process.
    private static let held = Locked<[String: (descriptor: Int32, holders: Int)]>([:])

    private init(folder: URL, key: String) {
        self.folder = folder
        self.key = key
    }

    deinit {
        ImportDestinationLock.held.withLock { held in
            guard let entry = held[key] else { return }
            if entry.holders > 1 {
                held[key] = (entry.descriptor, entry.holders - 1)
            } else {
                held[key] = nil
                close(entry.descriptor)  // releases the flock
            }
        }
    }

    /// The lock file of `folder`.
    public static func lockFile(of folder: URL) -> URL {
        folder.standardizedFileURL.appendingPathComponent(".aibuds/lock", isDirectory: false)
    }

    /// Takes the lock of `folder` (creating the folder and its `.aibuds/` as needed); `nil` when
    /// another process holds it. Throws when the lock file cannot be made.
    public static func tryAcquire(_ folder: URL) throws -> ImportDestinationLock? {
        let folder = folder.standardizedFileURL
        let key = folder.path
        let file = lockFile(of: folder)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        return try held.withLock { held -> ImportDestinationLock? in
            if let entry = held[key] {
                held[key] = (entry.descriptor, entry.holders + 1)
                return ImportDestinationLock(folder: folder, key: key)
            }
            let descriptor = open(file.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [
                    NSFilePathErrorKey: file.path, NSUnderlyingErrorKey: POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO),
                ])
            }
            var result: Int32
            repeat { result = flock(descriptor, LOCK_EX | LOCK_NB) } while result != 0 && errno == EINTR
            guard result == 0 else {
                close(descriptor)
                return nil
            }
            held[key] = (descriptor, 1)
            return ImportDestinationLock(folder: folder, key: key)
        }
    }

    /// Takes the lock of `folder`, waiting (polling every 100 ms, without blocking a thread) while
    /// another process holds it; `waiting` is called once if it has to wait. Throws
    /// `CancellationError` when the task is cancelled first.
    public static func acquire(_ folder: URL, waiting: @Sendable () -> Void = {}) async throws -> ImportDestinationLock {
        var told = false
        while true {
            if let lock = try tryAcquire(folder) { return lock }
            if !told {
                told = true
                waiting()
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }
}
