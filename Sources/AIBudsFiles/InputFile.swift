import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Why a file could not be read.
public struct InputFileError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// The path cannot be opened or read (missing, no permission): `errno` says why.
        case unreadable(errno: Int32)
        /// The path names a device such as `/dev/zero`, a folder, a FIFO or a socket.
        case notARegularFile
        /// The file holds more than the reader's limit.
        case tooLarge(limit: Int)
    }

    /// The path that was asked for.
    public var path: String
    /// What went wrong.
    public var kind: Kind

    /// `path: reason`, for a person.
    public var description: String { "\(path): \(reason)" }

    /// The reason alone, for a person.
    public var reason: String {
        switch kind {
        case .unreadable(let code): String(cString: strerror(code))
        case .notARegularFile: "not a regular file (a device, a folder, a FIFO or a socket)"
        case .tooLarge(let limit): "larger than the \(limit) bytes allowed"
        }
    }
}

/// The one way the project reads a whole file a user or another program named (a gyro log, a lens
/// profile, a manifest, a firmware image, a WAV file, a discovery announcement): only a regular
/// file, and at most `limit` bytes, so that `/dev/zero`, a FIFO nobody writes or a symbolic link
/// planted in a shared folder cannot hang the reader or take its memory.
///
/// The checks are made on the opened descriptor (no race between a check and the read), and the
/// read stops one byte past the limit, so a file that grows meanwhile is refused too.
public enum InputFile {
    /// The bytes of the regular file at `url`, at most `limit` of them.
    ///
    /// - Throws: ``InputFileError``.
    public static func read(_ url: URL, limit: Int) throws(InputFileError) -> Data {
        let path = url.path
        // O_NONBLOCK: opening a FIFO must not wait for a writer; a regular file ignores it.
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw InputFileError(path: path, kind: .unreadable(errno: errno)) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw InputFileError(path: path, kind: .unreadable(errno: errno)) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw InputFileError(path: path, kind: .notARegularFile) }
        guard status.st_size <= limit else { throw InputFileError(path: path, kind: .tooLarge(limit: limit)) }
        var data = Data(capacity: Int(status.st_size))
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            // Never more than one byte past the limit, whatever the file holds by now.
            let count = Glibc.read(fd, &buffer, min(buffer.count, limit + 1 - data.count))
            if count < 0 {
                if errno == EINTR { continue }
                throw InputFileError(path: path, kind: .unreadable(errno: errno))
            }
            if count == 0 { break }
            data.append(buffer, count: count)
            guard data.count <= limit else { throw InputFileError(path: path, kind: .tooLarge(limit: limit)) }
        }
        return data
    }
}
