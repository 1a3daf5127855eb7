import AIBudsFoundation
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Writes files so that a reader sees either the old content or the new, never a mix: the data goes to
/// a temporary file in the same directory, is flushed to disk, and is renamed over the target.
enum AtomicFile {
    /// The prefix of temporary files for `url`: `.<name>.tmp-`.
    static func temporaryPrefix(for url: URL) -> String { ".\(url.lastPathComponent).tmp-" }

    /// Writes `data` to `url` atomically, creating the directory when needed.
    ///
    /// `interruptAfterBytes` simulates a crash for tests: the temporary file gets that many bytes and
    /// the write stops there, with no rename, as if the process had died.
    static func write(_ data: Data, to url: URL, interruptAfterBytes: Int? = nil) throws {
        let directory = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let temporary = directory.appendingPathComponent(
            temporaryPrefix(for: url) + "\(getpid())-\(UUID().uuidString.prefix(8))")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw posixError("create \(temporary.path)") }
        var closed = false
        defer {
            if !closed { close(fd) }
        }
        let limit = min(interruptAfterBytes ?? data.count, data.count)
        try data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < limit {
                let written = Glibc.write(fd, buffer.baseAddress! + offset, limit - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw posixError("write \(temporary.path)")
                }
                offset += written
            }
        }
        if interruptAfterBytes != nil { return }
        guard fsync(fd) == 0 else {
            unlink(temporary.path)
            throw posixError("fsync \(temporary.path)")
        }
        close(fd)
        closed = true
        guard rename(temporary.path, url.path) == 0 else {
            let error = posixError("rename to \(url.path)")
            unlink(temporary.path)
            throw error
        }
        let dirFD = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dirFD >= 0 {
            fsync(dirFD)
            close(dirFD)
        }
    }

    /// Removes temporary files of `url` left by interrupted writes: those of this process (callers
    /// serialize their writes) and of processes that no longer run.
    static func removeStaleTemporaries(of url: URL) {
        let directory = url.deletingLastPathComponent()
        let prefix = temporaryPrefix(for: url)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            let pid = rest.split(separator: "-").first.flatMap { Int32($0) }
            if let pid, pid != getpid(), kill(pid, 0) == 0 { continue }
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
    }

    private static func posixError(_ what: String) -> AIBudsError {
        let code = errno
        return AIBudsError(
            .storedDevicesIOFailed, "\(what): \(String(cString: strerror(code)))",
            underlying: POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO))
    }
}
