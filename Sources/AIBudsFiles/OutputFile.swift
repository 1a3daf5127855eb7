import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Why a file could not be written where it was asked.
public struct OutputFileError: Error, Sendable, CustomStringConvertible {
    /// The path that was asked for.
    public var path: String
    /// What is wrong with it, for a person.
    public var reason: String

    /// `path: reason`.
    public var description: String { "\(path): \(reason)" }
}

/// The one way the project writes a file a user or a peer named: a temporary file beside the
/// target, then a rename over it, so a reader sees the old content or the new, never a torn file.
/// It replaces only a regular file: a path that names a symbolic link (whatever it points to), a
/// device such as `/dev/full`, a folder, a FIFO or a socket is refused, and so is a file that is
/// one of `protecting` (compared by device and inode, so another path to the same file is caught
/// too: an export must never replace the database it reads).
public enum OutputFile {
    /// Replaces (or creates) the file at `url` with what `fill` writes into the temporary path it is
    /// given, with `permissions` (0644 unless said; 0600 for private data). The temporary file is
    /// removed when anything fails.
    ///
    /// - Throws: ``OutputFileError`` when the target is not a regular file or is protected, or the
    ///   folder cannot be written; what `fill` throws, after the temporary file is removed.
    public static func replace(
        _ url: URL, permissions: mode_t = 0o644, protecting: [URL] = [], _ fill: (URL) throws -> Void
    ) throws {
        let path = url.path
        try check(path, protecting: protecting)
        let folder = url.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString.prefix(8)).tmp")
        do {
            try fill(temporary)
            guard chmod(temporary.path, permissions) == 0 else { throw failure(path, "cannot set its permissions", errno) }
            // Checked again just before the rename: the path may have changed while `fill` ran.
            try check(path, protecting: protecting)
            guard rename(temporary.path, path) == 0 else { throw failure(path, "cannot rename the new file over it", errno) }
        } catch {
            unlink(temporary.path)
            throw error
        }
    }

    /// Replaces (or creates) the file at `url` with `data`; see ``replace(_:permissions:protecting:_:)``.
    public static func replace(_ url: URL, with data: Data, permissions: mode_t = 0o644, protecting: [URL] = []) throws {
        try replace(url, permissions: permissions, protecting: protecting) { temporary in
            guard FileManager.default.createFile(atPath: temporary.path, contents: data) else {
                throw failure(url.path, "cannot create a file in \(url.deletingLastPathComponent().path)", errno)
            }
        }
    }

    /// Creates `folder` (and its parents) if needed with `permissions` for the folders it creates;
    /// an existing path that is not a folder is an error.
    public static func makeFolder(_ folder: URL, permissions: mode_t = 0o755) throws {
        var status = stat()
        if lstat(folder.path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFDIR else { throw OutputFileError(path: folder.path, reason: "is not a folder") }
            return
        }
        let parent = folder.deletingLastPathComponent()
        if parent.path != folder.path { try makeFolder(parent, permissions: permissions) }
        guard mkdir(folder.path, permissions) == 0 || errno == EEXIST else { throw failure(folder.path, "cannot create the folder", errno) }
    }

    /// Throws unless `path` is absent or a regular file that none of `protecting` is.
    static func check(_ path: String, protecting: [URL]) throws {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            if errno == ENOENT { return }
            throw failure(path, "cannot be examined", errno)
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFLNK: throw OutputFileError(path: path, reason: "is a symbolic link; give the path of a regular file")
        case S_IFDIR: throw OutputFileError(path: path, reason: "is a folder; give a file name")
        default: throw OutputFileError(path: path, reason: "is not a regular file (a device, FIFO or socket); it is left alone")
        }
        for protected in protecting {
            var other = stat()
            if stat(protected.path, &other) == 0, other.st_dev == status.st_dev, other.st_ino == status.st_ino {
                throw OutputFileError(path: path, reason: "is \(protected.path), which this command reads; choose another file")
            }
        }
    }

    private static func failure(_ path: String, _ what: String, _ code: Int32) -> OutputFileError {
        OutputFileError(path: path, reason: "\(what) (\(String(cString: strerror(code))))")
    }
}
