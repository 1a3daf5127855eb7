import AIBudsDigest
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A download in progress on disk: `<dest>/.partial/<name>.part`, the SHA-256 of its bytes so
/// far, and the validator (URL, ETag, size) it belongs to.
///
/// The validator is written beside it (`<name>.part.meta`) only when a download stops early, so
/// a later download can resume with `Range` + `If-Range`; a `.part` without one starts over.
struct PartialFile {
    /// What a partial file belongs to.
    struct Validator: Hashable {
        var url: String
        var etag: String
        var size: Int64
    }

    let request: DownloadRequest
    private let descriptor: Int32
    /// Bytes in the file.
    private(set) var length: Int64 = 0
    /// The validator of the bytes in the file, when known.
    var validator: Validator?
    private var hasher = SHA256()
    private var closed = false
    /// Bytes below this offset have been handed to writeback already.
    private var writebackStarted: Int64 = 0
    /// How many written bytes accumulate before their writeback is started.
    private static let writebackStep: Int64 = 8 << 20

    private var partPath: String { request.partialURL.path }
    private var metaPath: String { request.partialURL.path + ".meta" }

    /// Opens (creating `.partial/` and the file as needed) the partial file of a request. Bytes
    /// already there are kept, and hashed through `buffer`, only when their validator was saved
    /// for the same URL.
    init(request: DownloadRequest, buffer: UnsafeMutableRawBufferPointer) throws {
        self.request = request
        let directory = request.partialDirectory.path
        if mkdir(directory, 0o755) != 0, errno != EEXIST {
            throw PartialFile.failure("mkdir", directory)
        }
        descriptor = open(request.partialURL.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw PartialFile.failure("open", request.partialURL.path) }
        do {
            guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
                throw TransferError(.localFileError, "\(request.partialURL.path) is being downloaded by another task")
            }
            let saved = PartialFile.readValidator(at: request.partialURL.path + ".meta")
            var info = stat()
            guard fstat(descriptor, &info) == 0 else { throw PartialFile.failure("fstat", partPath) }
            if let saved, saved.url == request.url, Int64(info.st_size) <= saved.size, info.st_size > 0 {
                try hashExisting(Int64(info.st_size), buffer: buffer)
                validator = saved
            } else {
                try restart()
            }
        } catch {
            Glibc.close(descriptor)
            throw error
        }
    }

    /// Empties the file to download from byte 0 (a changed file, a lost validator).
    mutating func restart() throws {
        guard ftruncate(descriptor, 0) == 0, lseek(descriptor, 0, SEEK_SET) == 0 else {
            throw PartialFile.failure("truncate", partPath)
        }
        length = 0
        writebackStarted = 0
        hasher = SHA256()
        validator = nil
        unlink(metaPath)
    }

    /// Appends bytes at the end and adds them to the digest.
    mutating func append(_ bytes: UnsafeRawBufferPointer) throws {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, base + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                throw PartialFile.failure("write", partPath)
            }
            offset += written
        }
        hasher.update(bytes)
        length += Int64(bytes.count)
        if length - writebackStarted >= PartialFile.writebackStep {
            // Start writing these pages to disk now (POSIX_FADV_DONTNEED begins writeback of dirty
            // pages and drops clean ones), so the final fsync has little left to wait for and the
            // page cache holds little of the file.
            _ = posix_fadvise(descriptor, off_t(writebackStarted), off_t(length - writebackStarted), POSIX_FADV_DONTNEED)
            writebackStarted = length
        }
    }

    /// The SHA-256 of the whole file; the partial file takes no more bytes afterwards.
    mutating func finalizeDigest() -> [UInt8] { hasher.finalize() }

    /// Saves the validator beside the file so a later download can resume; best effort.
    func saveValidator() {
        guard let validator, length > 0 else { return }
        let text = "aibuds-partial 1\n\(validator.url)\n\(validator.etag)\n\(validator.size)\n"
        try? Data(text.utf8).write(to: URL(fileURLWithPath: metaPath), options: .atomic)
    }

    /// Makes the bytes durable and moves the file to its final name atomically; never replaces
    /// an existing file unless the request allows it (then `TransferError.fileExists`).
    mutating func commit() throws -> URL {
        guard fsync(descriptor) == 0 else { throw PartialFile.failure("fsync", partPath) }
        close()
        let finalPath = request.finalURL.path
        if request.overwrite {
            guard rename(partPath, finalPath) == 0 else { throw PartialFile.failure("rename", finalPath) }
        } else if link(partPath, finalPath) == 0 {
            unlink(partPath)
        } else if errno == EEXIST {
            throw TransferError(.fileExists, "\(finalPath) already exists", underlying: FileSystemFailure(operation: "link", path: finalPath, errno: EEXIST))
        } else if access(finalPath, F_OK) != 0, rename(partPath, finalPath) == 0 {
            // A file system without hard links: check, then rename.
        } else {
            throw PartialFile.failure("rename", finalPath)
        }
        unlink(metaPath)
        let directory = open(request.destinationDirectory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            _ = fsync(directory)
            Glibc.close(directory)
        }
        return request.finalURL
    }

    /// Deletes the partial file and its validator (its bytes are known to be wrong).
    mutating func discard() {
        close()
        unlink(partPath)
        unlink(metaPath)
    }

    /// Closes the file, keeping it on disk.
    mutating func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(descriptor)
    }

    private mutating func hashExisting(_ size: Int64, buffer: UnsafeMutableRawBufferPointer) throws {
        guard lseek(descriptor, 0, SEEK_SET) == 0 else { throw PartialFile.failure("lseek", partPath) }
        var remaining = size
        while remaining > 0 {
            let count = read(descriptor, buffer.baseAddress, Int(min(Int64(buffer.count), remaining)))
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { throw PartialFile.failure("read", partPath) }
            hasher.update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            remaining -= Int64(count)
        }
        length = size
    }

    private static func readValidator(at path: String) -> Validator? {
        guard let data = FileManager.default.contents(atPath: path), data.count < 64 * 1024,
            let text = String(data: data, encoding: .utf8)
        else { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 4, lines[0] == "aibuds-partial 1", let size = Int64(lines[3]), size >= 0 else { return nil }
        return Validator(url: String(lines[1]), etag: String(lines[2]), size: size)
    }

    private static func failure(_ operation: String, _ path: String) -> TransferError {
        let failure = FileSystemFailure(operation: operation, path: path, errno: errno)
        let what = failure.errno == ENOSPC ? "the disk is full" : "cannot \(operation) \(path)"
        return TransferError(.localFileError, what, underlying: failure)
    }
}
