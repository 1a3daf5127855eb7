import AIBudsNet

#if canImport(Glibc)
import Glibc
#endif

/// A finished, verified partial file waiting to be made durable and moved into place.
///
/// Committing is separate from downloading so that a batch can overlap the disk's latency
/// (`fsync`) with the next downloads (see `CommitQueue`).
struct PendingCommit: Sendable {
    /// The open partial file, owned by this value until `commit` or `abandon`.
    let descriptor: Int32
    let paths: DownloadPaths
    let overwrite: Bool
    /// Whether to drop the file's pages from the cache after the commit: the bytes were buffered
    /// and are many enough to matter (direct writes leave nothing to drop).
    let dropsCachedPages: Bool
    /// The validator to save if the commit fails, so the bytes can still be reused.
    let validatorText: String?
    /// Whether a validator file may be beside the partial file, to be removed once committed.
    let removesValidatorFile: Bool
    /// Whether the file is unnamed (`O_TMPFILE`): it is linked to its final name, not renamed.
    var isUnnamed = false

    /// Makes the bytes durable, then gives the file its final name atomically; never replaces an
    /// existing file unless `overwrite` (else `TransferError.fileExists`, keeping a `.partial/`
    /// file; an unnamed one is gone). With `syncDirectory` the new name is made durable too; a batch does that once.
    func commit(syncDirectory: Bool) throws {
        if case .failure(let failure) = SystemCall.result("fsync", { fsync(descriptor) }) {
            abandon()
            throw PartialFile.failure(failure, paths.partialFile)
        }
        try rename(syncDirectory: syncDirectory)
    }

    /// The second half of `commit`, for bytes already made durable (by `fsync` or by a `syncfs`
    /// of their file system): closes the file and renames it.
    func rename(syncDirectory: Bool) throws {
        // The clean pages are of no further use to this process; let them go.
        if dropsCachedPages { _ = posix_fadvise(descriptor, 0, 0, POSIX_FADV_DONTNEED) }
        if isUnnamed {
            // Linked while still open (closing an unnamed file frees it); never replaces.
            defer { SystemCall.closeIgnoringErrors(descriptor) }
            try FileRenamer.linkUnnamed(descriptor, to: paths.finalFile)
            if syncDirectory { FileRenamer.finishDestination(paths.destination, syncsFileSystem: true) }
            return
        }
        SystemCall.closeIgnoringErrors(descriptor)
        do {
            try FileRenamer.move(paths.partialFile, to: paths.finalFile, replacing: overwrite)
        } catch {
            PartialFile.save(validatorText, to: paths.metaFile)
            throw error
        }
        if removesValidatorFile { unlink(paths.metaFile) }
        if syncDirectory { FileRenamer.finishDestination(paths.destination) }
    }

    /// Gives up on the commit, keeping a `.partial/` file (and its validator) for a later resume;
    /// an unnamed file is gone once closed.
    func abandon() {
        PartialFile.save(validatorText, to: paths.metaFile)
        SystemCall.closeIgnoringErrors(descriptor)
    }
}

/// Atomic renames that can refuse to replace, and directory syncs.
enum FileRenamer {
    private typealias Renameat2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32

    /// Linux's `renameat2`, looked up at run time because Glibc's Swift module hides it.
    private static let renameat2: Renameat2? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2").map {
        unsafeBitCast($0, to: Renameat2.self)
    }
    private static let renameNoReplace: UInt32 = 1

    /// Renames `source` to `destination` atomically. Unless `replacing`, an existing destination
    /// is never touched: `TransferError.fileExists`.
    static func move(_ source: String, to destination: String, replacing: Bool) throws {
        if replacing {
            try plainRename(source, to: destination)
            return
        }
        if let renameat2 {
            switch SystemCall.result("rename", { renameat2(AT_FDCWD, source, AT_FDCWD, destination, renameNoReplace) }) {
            case .success: return
            case .failure(let failure) where failure.errno == EEXIST: throw exists(destination)
            case .failure(let failure) where failure.errno == EINVAL || failure.errno == ENOSYS: break
            case .failure(let failure): throw PartialFile.failure(failure, destination)
            }
        }
        // No RENAME_NOREPLACE here: a hard link fails on an existing name just as atomically.
        switch SystemCall.result("link", { link(source, destination) }) {
        case .success:
            unlink(source)
            return
        case .failure(let failure) where failure.errno == EEXIST: throw exists(destination)
        case .failure: break
        }
        // A file system without hard links: check, then rename.
        guard access(destination, F_OK) != 0 else { throw exists(destination) }
        try plainRename(source, to: destination)
    }

    /// `rename(2)`, which replaces an existing destination.
    private static func plainRename(_ source: String, to destination: String) throws {
        if case .failure(let failure) = SystemCall.result("rename", { rename(source, destination) }) {
            throw PartialFile.failure(failure, destination)
        }
    }

    /// Gives an unnamed open file (`O_TMPFILE`) the name `destination`; an existing name is never
    /// touched (`linkat` fails with `EEXIST`: `TransferError.fileExists`).
    static func linkUnnamed(_ descriptor: Int32, to destination: String) throws {
        let source = "/proc/self/fd/\(descriptor)"
        switch SystemCall.result("link", { linkat(AT_FDCWD, source, AT_FDCWD, destination, AT_SYMLINK_FOLLOW) }) {
        case .success: return
        case .failure(let failure) where failure.errno == EEXIST: throw exists(destination)
        case .failure(let failure): throw PartialFile.failure(failure, destination)
        }
    }

    /// Makes the names in a destination durable (after renames into it) and removes its
    /// `.partial` folder when nothing is left in it; best effort. With `syncsFileSystem` (after
    /// unnamed files were linked into it) the whole file system is synced first, so that the
    /// linked files' inodes (their new link count) are durable with their names: on a file system
    /// without a journal the directory's `fsync` alone does not write them.
    static func finishDestination(_ path: String, syncsFileSystem: Bool = false) {
        syncDirectory(path, syncsFileSystem: syncsFileSystem)
        rmdir(path + "/.partial")
    }

    /// Makes the names in a folder durable (after renames into it); best effort.
    static func syncDirectory(_ path: String, syncsFileSystem: Bool = false) {
        guard case .success(let directory) = SystemCall.result("open", { open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }) else { return }
        if syncsFileSystem, let syncfs = CommitQueue.syncfs { _ = SystemCall.result("syncfs") { syncfs(directory) } }
        _ = SystemCall.result("fsync") { fsync(directory) }
        SystemCall.closeIgnoringErrors(directory)
    }

    private static func exists(_ path: String) -> TransferError {
        TransferError(.fileExists, "\(path) already exists", underlying: FileSystemFailure(operation: "rename", path: path, errno: EEXIST))
    }
}
