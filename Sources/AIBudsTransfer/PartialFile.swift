import AIBudsDigest
import AIBudsNet
import AIBudsHTTPWire
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A download in progress on disk: `<dest>/.partial/<name>.part`, the SHA-256 of its bytes so
/// far, and the validator (URL, ETag, size) it belongs to.
///
/// Bodies are written with `O_DIRECT` where the file system allows it: the bytes go from the
/// download buffer to the disk without a copy through the page cache, which measured several
/// times cheaper than buffered writes plus `fsync` for large files and steadier and cheaper for
/// small ones too (page-cache allocation is slow and erratic on the benchmark machine, and after
/// direct writes the commit's `syncfs` has almost nothing left to write; docs/benchmarks.md).
/// Direct writes must be whole blocks at block offsets, so while they are on the file length
/// stays a multiple of `alignment`; the last partial block is written normally.
///
/// The validator is written beside the file (`<name>.part.meta`, the resume record) when a
/// response's body is about to be written, before its first byte, so that whatever ends the
/// download (a drop, a cancel, `kill -9`, the out-of-memory killer) a later download resumes with
/// `Range` + `If-Range`; a `.part` without one starts over. The resumed length is the file's
/// length: every byte in the file was hashed and written in order, and the final SHA-256 check
/// catches a prefix that a power loss left wrong (the download then starts over once,
/// `FileDownloadJob`).
struct PartialFile: DownloadBody {
    /// What a partial file belongs to.
    struct Validator: Hashable {
        var url: String
        var etag: String
        var size: Int64
    }

    /// The block size direct writes are aligned to (offsets, lengths and memory).
    static let directAlignment = 4096
    /// Linux's `O_DIRECT`, which Glibc's Swift module hides behind `_GNU_SOURCE`; 0 where unknown.
    #if arch(x86_64) || arch(i386)
    static let directFlag: Int32 = 0o40000
    #elseif arch(arm64) || arch(arm)
    static let directFlag: Int32 = 0o200000
    #else
    static let directFlag: Int32 = 0
    #endif
    /// How many written bytes accumulate before their writeback is started (buffered mode).
    private static let writebackStep: Int64 = 8 << 20
    /// Linux's `O_TMPFILE` (`__O_TMPFILE | O_DIRECTORY`), which Glibc's Swift module hides; 0 where unknown.
    #if arch(x86_64) || arch(i386)
    static let temporaryFlag: Int32 = 0o20200000
    #elseif arch(arm64) || arch(arm)
    static let temporaryFlag: Int32 = 0o20040000
    #else
    static let temporaryFlag: Int32 = 0
    #endif
    /// Whether `/proc/self/fd` is there, through which an unnamed file gets its name (`linkat`).
    private static let hasProcFileDescriptors = access("/proc/self/fd", X_OK) == 0

    let paths: DownloadPaths
    /// The file's URL, saved with its validator.
    let url: String
    private let descriptor: Int32
    /// Whether the file is unnamed (`O_TMPFILE` in the destination folder): it gets its final name
    /// only by its commit (`linkat`), and vanishes if the download stops first.
    let isUnnamed: Bool
    /// Whether writes bypass the page cache.
    private(set) var direct: Bool
    /// Bytes in the file.
    private(set) var length: Int64 = 0
    /// The validator of the bytes in the file, when known.
    var validator: Validator?
    private var hasher = SHA256()
    private var closed = false
    /// Whether `<name>.part.meta` may exist (false for a file this download created).
    private var mayHaveValidatorFile = false
    /// The validator `<name>.part.meta` holds, when this download read or wrote it.
    private var recordedValidator: Validator?
    /// Bytes below this offset have been handed to writeback already (buffered mode).
    private var writebackStarted: Int64 = 0

    /// The multiple of which every write but the last must be.
    var alignment: Int { direct ? PartialFile.directAlignment : 1 }

    /// Opens (creating `.partial/` and the file as needed) the partial file of a download. Bytes
    /// already there are kept, and hashed through `buffer`, only when their validator was saved
    /// for a URL of the same request target `path`. A file expected to be smaller than a block is written buffered. `isNew`
    /// says the batch saw no state of this file in `.partial/`: the file is then created
    /// exclusively and nothing is looked for (should it exist after all, it is opened as usual).
    ///
    /// A new file expected to be at most `unnamedLimit` bytes is instead created unnamed in the
    /// destination folder (`O_TMPFILE`), where the file system and `/proc` allow it: no entry in
    /// `.partial/`, no lock, no rename; its bytes survive drops within this download (it resumes on
    /// the open file) but not a cancel or a crash, which for a small file costs little.
    init(
        paths: DownloadPaths, url: String, path: String, expectedSize: Int64?, isNew: Bool, unnamedLimit: Int64 = 0,
        buffer: UnsafeMutableRawBufferPointer
    ) throws {
        self.paths = paths
        self.url = url
        var fd: Int32 = -1
        // Direct writes from the start where the file system takes them (EINVAL where it does not).
        let wholeBlocks = (expectedSize ?? Int64.max) >= Int64(PartialFile.directAlignment)
        if isNew, let expectedSize, expectedSize <= unnamedLimit, let unnamed = PartialFile.openUnnamed(in: paths.destination, direct: wholeBlocks) {
            descriptor = unnamed.descriptor
            direct = unnamed.direct
            isUnnamed = true
            return
        }
        isUnnamed = false
        var flags = O_RDWR | O_CREAT | O_CLOEXEC | (wholeBlocks ? PartialFile.directFlag : 0) | (isNew ? O_EXCL : 0)
        var openFailure = SystemCallError("open", errno: ENOENT)
        for _ in 0..<5 {
            switch SystemCall.result("open", { open(paths.partialFile, flags, 0o644) }) {
            case .success(let opened): fd = opened
            case .failure(let failure): openFailure = failure
            }
            if fd >= 0 { break }
            if openFailure.errno == EINVAL, flags & PartialFile.directFlag != 0 {
                flags &= ~PartialFile.directFlag
                continue
            }
            if openFailure.errno == EEXIST, flags & O_EXCL != 0 {
                flags &= ~O_EXCL
                continue
            }
            // ENOENT: no `.partial/` yet (or another batch removed the empty folder): make it.
            guard openFailure.errno == ENOENT else { break }
            if case .failure(let failure) = SystemCall.result("mkdir", { mkdir(paths.partialDirectory, 0o755) }), failure.errno != EEXIST {
                throw PartialFile.failure(failure, paths.partialDirectory)
            }
        }
        descriptor = fd
        direct = flags & PartialFile.directFlag != 0
        guard descriptor >= 0 else { throw PartialFile.failure(openFailure, paths.partialFile) }
        do {
            guard case .success = SystemCall.result("flock", { flock(descriptor, LOCK_EX | LOCK_NB) }) else {
                throw TransferError(.localFileError, "\(paths.partialFile) is being downloaded by another task")
            }
            // Created just now, by this download: empty, and without a validator.
            if flags & O_EXCL != 0 { return }
            mayHaveValidatorFile = true
            var info = stat()
            if case .failure(let failure) = SystemCall.result("fstat", { fstat(descriptor, &info) }) {
                throw PartialFile.failure(failure, paths.partialFile)
            }
            let existing = Int64(info.st_size)
            guard existing > 0 else { return }
            // Bytes from an earlier run are read back buffered; `useDirectWrites` turns direct
            // writes on again when the length allows.
            if direct { setDirect(false) }
            // The same file of the device: the same path. Host and port change with every transfer
            // session (the device opens its data plane afresh); If-Range with the saved ETag still
            // guards the bytes.
            if let saved = PartialFile.readValidator(at: paths.metaFile), PartialFile.samePath(saved.url, path),
                existing <= saved.size
            {
                try hashExisting(existing, buffer: buffer)
                validator = saved
                recordedValidator = saved
            } else {
                try restart()
            }
        } catch {
            SystemCall.closeIgnoringErrors(descriptor)
            throw error
        }
    }

    /// An unnamed file in `folder` (`O_TMPFILE`), with direct writes when asked for and taken;
    /// nil where the file system or the system refuses (the caller then uses `.partial/`).
    private static func openUnnamed(in folder: String, direct: Bool) -> (descriptor: Int32, direct: Bool)? {
        guard temporaryFlag != 0, hasProcFileDescriptors else { return nil }
        let flags = O_RDWR | O_CLOEXEC | temporaryFlag
        if direct, directFlag != 0 {
            switch SystemCall.result("open", { open(folder, flags | directFlag, 0o644) }) {
            case .success(let fd): return (fd, true)
            // Only EINVAL may be about O_DIRECT; anything else (EOPNOTSUPP, or EISDIR from a
            // kernel without O_TMPFILE) refuses the unnamed file itself.
            case .failure(let failure): guard failure.errno == EINVAL else { return nil }
            }
        }
        guard case .success(let fd) = SystemCall.result("open", { open(folder, flags, 0o644) }) else { return nil }
        return (fd, false)
    }

    /// Whether a saved validator's URL names the device file at request target `path`; the
    /// saved URL is parsed only here, when a partial file is resumed.
    static func samePath(_ savedURL: String, _ path: String) -> Bool {
        guard let saved = try? HTTPURL(parsing: savedURL) else { return false }
        return saved.path == path
    }

    /// Turns direct writes (back) on for the body to come when the file ends at a block
    /// boundary and the body has at least one whole block.
    mutating func useDirectWrites(forComing bytes: Int64) {
        guard !direct, PartialFile.directFlag != 0, bytes >= Int64(PartialFile.directAlignment),
            length % Int64(PartialFile.directAlignment) == 0
        else { return }
        setDirect(true)
    }

    /// Empties the file to download from byte 0 (a changed file, a lost validator).
    mutating func restart() throws {
        if case .failure(let failure) = SystemCall.result("truncate", { ftruncate(descriptor, 0) }) {
            throw PartialFile.failure(failure, paths.partialFile)
        }
        length = 0
        writebackStarted = 0
        hasher = SHA256()
        validator = nil
        if mayHaveValidatorFile {
            unlink(paths.metaFile)
            mayHaveValidatorFile = false
            recordedValidator = nil
        }
    }

    /// Makes the resume record say what the coming body belongs to, before its first byte is
    /// written: written (to a temporary file, renamed over the old one) when the validator is new,
    /// removed when there is none (no `ETag`: nothing to resume with). An unnamed file has none.
    /// A record that cannot be written fails the download (`TransferError.localFileError`; a full
    /// disk says so), so no partial file is ever left without its record.
    mutating func recordValidator(size: Int64) throws { try recordValidator() }

    /// Writes or removes the resume record (see `recordValidator(size:)`).
    mutating func recordValidator() throws {
        guard !isUnnamed, validator != recordedValidator || (validator == nil && mayHaveValidatorFile) else { return }
        guard let validator else {
            unlink(paths.metaFile)
            mayHaveValidatorFile = false
            recordedValidator = nil
            return
        }
        try PartialFile.write(PartialFile.text(of: validator), to: paths.metaFile)
        mayHaveValidatorFile = true
        recordedValidator = validator
    }

    /// Appends the first `count` bytes of `buffer` (block-aligned memory) and adds them to the
    /// digest. Unless `final`, only whole blocks are written; returns how many bytes were.
    mutating func append(from buffer: UnsafeMutableRawBufferPointer, count: Int, final: Bool) throws -> Int {
        let whole = count - count % alignment
        if whole > 0 { try writeFully(UnsafeRawBufferPointer(rebasing: buffer[0..<whole])) }
        guard final, whole < count else { return whole }
        // The last partial block: direct writes cannot take it, so switch to buffered for it.
        if direct { setDirect(false) }
        try writeFully(UnsafeRawBufferPointer(rebasing: buffer[whole..<count]))
        return count
    }

    /// The SHA-256 of the whole file; the partial file takes no more bytes afterwards.
    mutating func finalizeDigest() -> [UInt8] { hasher.finalize() }

    /// Hands the finished file over for its commit (see `PendingCommit`); this value no longer
    /// owns the descriptor.
    mutating func finish(overwrite: Bool, sha256: [UInt8]) -> DownloadBodyEnd { .commit(finish(overwrite: overwrite)) }

    /// Whether a later download can resume from the bytes kept (an unnamed file is gone once closed).
    var keepsBytesForResume: Bool { !isUnnamed && length > 0 }

    /// Hands the finished file over for its commit (see `PendingCommit`); this value no longer
    /// owns the descriptor.
    mutating func finish(overwrite: Bool) -> PendingCommit {
        closed = true
        return PendingCommit(
            descriptor: descriptor, paths: paths, overwrite: overwrite, dropsCachedPages: !direct && length >= 1 << 20,
            validatorText: isUnnamed ? nil : validatorText, removesValidatorFile: mayHaveValidatorFile, isUnnamed: isUnnamed)
    }

    /// Saves the validator beside the file so a later download can resume, unless the record
    /// already holds it (written when the body started); best effort (an unnamed file has nothing
    /// to resume once closed).
    func saveValidator() {
        guard !isUnnamed, validator != recordedValidator else { return }
        PartialFile.save(validatorText, to: paths.metaFile)
    }

    private var validatorText: String? {
        guard let validator, length > 0 else { return nil }
        return PartialFile.text(of: validator)
    }

    /// The resume record's text.
    private static func text(of validator: Validator) -> String {
        "aibuds-partial 1\n\(validator.url)\n\(validator.etag)\n\(validator.size)\n"
    }

    static func save(_ validatorText: String?, to path: String) {
        guard let validatorText else { return }
        try? write(validatorText, to: path)
    }

    /// Writes `text` to `path` atomically: a temporary file beside it, renamed over it. Not
    /// synced: a `kill -9` keeps what the kernel has, and after a power loss the final digest check
    /// guards the bytes whatever the record says.
    private static func write(_ text: String, to path: String) throws {
        let temporary = path + ".tmp"
        let fd: Int32
        switch SystemCall.result("open", { open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }) {
        case .success(let opened): fd = opened
        case .failure(let failure): throw PartialFile.failure(failure, temporary)
        }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let result = bytes.withUnsafeBytes { buffer in
                SystemCall.result("write") { Glibc.write(fd, buffer.baseAddress! + written, buffer.count - written) }
            }
            switch result {
            case .success(let count) where count > 0: written += count
            case .success:
                SystemCall.closeIgnoringErrors(fd)
                unlink(temporary)
                throw PartialFile.failure(SystemCallError("write", errno: EIO), temporary)
            case .failure(let failure):
                SystemCall.closeIgnoringErrors(fd)
                unlink(temporary)
                throw PartialFile.failure(failure, temporary)
            }
        }
        SystemCall.closeIgnoringErrors(fd)
        if case .failure(let failure) = SystemCall.result("rename", { rename(temporary, path) }) {
            unlink(temporary)
            throw PartialFile.failure(failure, path)
        }
    }

    /// Deletes the partial file and its validator (its bytes are known to be wrong, or there are
    /// none), while still holding the file's lock.
    mutating func discard() {
        if !isUnnamed {
            unlink(paths.partialFile)
            unlink(paths.metaFile)
        }
        close()
    }

    /// Closes the file, keeping it on disk.
    mutating func close() {
        guard !closed else { return }
        closed = true
        SystemCall.closeIgnoringErrors(descriptor)
    }

    private mutating func writeFully(_ bytes: UnsafeRawBufferPointer) throws {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let position = off_t(length) + off_t(offset)
            switch SystemCall.result("write", { pwrite(descriptor, base + offset, bytes.count - offset, position) }) {
            case .success(0):
                throw PartialFile.failure(SystemCallError("write", errno: EIO), paths.partialFile)
            case .success(let written):
                offset += written
            case .failure(let failure) where failure.errno == EINVAL && direct:
                // The file system accepted O_DIRECT but not these offsets or sizes.
                setDirect(false)
            case .failure(let failure):
                throw PartialFile.failure(failure, paths.partialFile)
            }
        }
        hasher.update(bytes)
        length += Int64(bytes.count)
        if !direct, length - writebackStarted >= PartialFile.writebackStep {
            // Buffered mode: start writing these pages now (POSIX_FADV_DONTNEED begins writeback of
            // dirty pages and drops clean ones), so the final fsync has less to wait for.
            _ = posix_fadvise(descriptor, off_t(writebackStarted), off_t(length - writebackStarted), POSIX_FADV_DONTNEED)
            writebackStarted = length
        }
    }

    private mutating func setDirect(_ on: Bool) {
        // Best effort: a file that keeps its mode is written as it was.
        guard case .success(let flags) = SystemCall.result("fcntl", { fcntl(descriptor, F_GETFL) }) else { return }
        let wanted = on ? flags | PartialFile.directFlag : flags & ~PartialFile.directFlag
        if case .success = SystemCall.result("fcntl", { fcntl(descriptor, F_SETFL, wanted) }) { direct = on }
    }

    private mutating func hashExisting(_ size: Int64, buffer: UnsafeMutableRawBufferPointer) throws {
        var offset: Int64 = 0
        while offset < size {
            let want = Int(min(Int64(buffer.count), size - offset))
            let count: Int
            switch SystemCall.result("read", { pread(descriptor, buffer.baseAddress, want, off_t(offset)) }) {
            case .success(0): throw PartialFile.failure(SystemCallError("read", errno: EIO), paths.partialFile)
            case .success(let value): count = value
            case .failure(let failure): throw PartialFile.failure(failure, paths.partialFile)
            }
            hasher.update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            offset += Int64(count)
        }
        length = size
    }

    private static func readValidator(at path: String) -> Validator? {
        guard case .success(let fd) = SystemCall.result("open", { open(path, O_RDONLY | O_CLOEXEC) }) else { return nil }
        defer { SystemCall.closeIgnoringErrors(fd) }
        var bytes = [UInt8](repeating: 0, count: 16 * 1024)
        let read = bytes.withUnsafeMutableBytes { buffer in SystemCall.result("read") { Glibc.read(fd, buffer.baseAddress, buffer.count) } }
        guard case .success(let count) = read, count > 0, let text = String(validating: bytes[0..<count], as: UTF8.self) else { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 4, lines[0] == "aibuds-partial 1", let size = Int64(lines[3]), size >= 0 else { return nil }
        return Validator(url: String(lines[1]), etag: String(lines[2]), size: size)
    }

    /// A local file error of the engine for a failed system call on `path`.
    static func failure(_ call: SystemCallError, _ path: String) -> TransferError {
        let operation = call.operation
        let failure = FileSystemFailure(operation: operation, path: path, errno: call.errno)
        let what = failure.errno == ENOSPC || failure.errno == EDQUOT ? "the disk (or the quota) is full" : "cannot \(operation) \(path)"
        return TransferError(.localFileError, what, underlying: failure)
    }
}
