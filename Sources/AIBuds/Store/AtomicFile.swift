import AIBudsNet
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
        let fd: Int32
        switch SystemCall.result("open", { open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600) }) {
        case .success(let opened): fd = opened
        case .failure(let failure): throw posixError("create \(temporary.path)", failure)
        }
        var closed = false
        defer {
            if !closed { SystemCall.closeIgnoringErrors(fd) }
        }
        let limit = min(interruptAfterBytes ?? data.count, data.count)
        try data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < limit {
                switch SystemCall.result("write", { Glibc.write(fd, buffer.baseAddress! + offset, limit - offset) }) {
                case .success(let written): offset += written
                case .failure(let failure): throw posixError("write \(temporary.path)", failure)
                }
            }
        }
        if interruptAfterBytes != nil { return }
        if case .failure(let failure) = SystemCall.result("fsync", { fsync(fd) }) {
            unlink(temporary.path)
            throw posixError("fsync \(temporary.path)", failure)
        }
        SystemCall.closeIgnoringErrors(fd)
        closed = true
        if case .failure(let failure) = SystemCall.result("rename", { rename(temporary.path, url.path) }) {
            unlink(temporary.path)
            throw posixError("rename to \(url.path)", failure)
        }
        if case .success(let dirFD) = SystemCall.result("open", { open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }) {
            _ = SystemCall.result("fsync") { fsync(dirFD) }
            SystemCall.closeIgnoringErrors(dirFD)
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

    private static func posixError(_ what: String, _ failure: SystemCallError) -> AIBudsError {
        let code = failure.errno
        return AIBudsError(
            .storedDevicesIOFailed, "\(what): \(String(cString: strerror(code)))",
            underlying: POSIXError(POSIXErrorCode(rawValue: code) ?? .EIO))
    }
}
