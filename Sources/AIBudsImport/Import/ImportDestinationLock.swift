import AIBudsSync
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One import at a time into a folder: an advisory `flock` on `<folder>/.aibuds/lock`, held while
/// an import runs.
///
/// A second import into the same folder, in another process or in this one, waits until the first
/// has ended (the lock goes with its holder, or its process, however it ends, `kill -9` included)
/// and then finds the files the first imported. Nothing shares a lock silently: `aibuds media
/// import` takes it before it talks to the device and hands it to its import
/// (``MediaImportOptions/destinationLock``), which uses that one instead of taking its own.
public final class ImportDestinationLock: Sendable {
    /// The folder this lock is held for (standardized).
    public let folder: URL
    private let descriptor: Int32

    /// The folders locked by this process (a second holder here waits as one elsewhere would).
    private static let held = Locked<Set<String>>([])

    private init(folder: URL, descriptor: Int32) {
        self.folder = folder
        self.descriptor = descriptor
    }

    deinit {
        ImportDestinationLock.held.withLock { held in
            held.remove(folder.path)
            close(descriptor)  // releases the flock
        }
    }

    /// The lock file of `folder`.
    public static func lockFile(of folder: URL) -> URL {
        folder.standardizedFileURL.appendingPathComponent(".aibuds/lock", isDirectory: false)
    }

    /// Takes the lock of `folder` (creating the folder and its `.aibuds/` as needed); `nil` when
    /// another import holds it, in this process or another. Throws when the lock file cannot be
    /// made or locked for another reason than that (`flock` failing with other than `EWOULDBLOCK`,
    /// for example `ENOLCK` on a file system without locks), so no caller waits for ever.
    public static func tryAcquire(_ folder: URL) throws -> ImportDestinationLock? {
        try tryAcquire(folder, lock: { flock($0, $1) })
    }

    /// ``tryAcquire(_:)`` with the `flock` call given (tests give one that fails).
    static func tryAcquire(_ folder: URL, lock: (Int32, Int32) -> Int32) throws -> ImportDestinationLock? {
        let folder = folder.standardizedFileURL
        let key = folder.path
        let file = lockFile(of: folder)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        return try held.withLock { held -> ImportDestinationLock? in
            guard !held.contains(key) else { return nil }
            let descriptor = open(file.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw failure(file, errno) }
            var result: Int32
            repeat { result = lock(descriptor, LOCK_EX | LOCK_NB) } while result != 0 && errno == EINTR
            guard result == 0 else {
                let code = errno
                close(descriptor)
                if code == EWOULDBLOCK { return nil }
                throw failure(file, code)
            }
            held.insert(key)
            return ImportDestinationLock(folder: folder, descriptor: descriptor)
        }
    }

    private static func failure(_ file: URL, _ code: Int32) -> CocoaError {
        CocoaError(.fileWriteUnknown, userInfo: [
            NSFilePathErrorKey: file.path, NSUnderlyingErrorKey: POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO),
        ])
    }

    /// Takes the lock of `folder`, waiting (polling every 100 ms, without blocking a thread) while
    /// another import holds it; `waiting` is called once if it has to wait. Throws
    /// `CancellationError` when the task is cancelled first, and what ``tryAcquire(_:)`` throws.
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
