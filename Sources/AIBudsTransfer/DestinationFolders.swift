import AIBudsSync

#if canImport(Glibc)
import Glibc
#endif

/// What a batch learns once about each destination folder, instead of once per file: whether it
/// is a folder, and which local names have download state (`.part`, `.part.meta`) in its
/// `.partial/`. A file with none there is created afresh without looking for any.
final class DestinationFolders: Sendable {
    /// One destination folder, as found when the batch first needed it.
    struct Folder: Sendable {
        /// The `errno` of the check when the path is not a usable folder (`ENOTDIR` for a file).
        let failure: Int32?
        /// Local names with a partial file or a saved validator in `.partial/`.
        let namesWithState: Set<String>
    }

    private let folders = Locked<[String: Folder]>([:])

    /// The folder of a download; looked at on first use.
    func folder(_ paths: DownloadPaths) -> Folder {
        if let known = folders.withLock({ $0[paths.destination] }) { return known }
        let found = DestinationFolders.look(at: paths)
        return folders.withLock { folders in
            if let known = folders[paths.destination] { return known }
            folders[paths.destination] = found
            return found
        }
    }

    /// Checks that `paths.destination` is a folder (the failure's `errno` when not).
    static func check(_ paths: DownloadPaths) -> Int32? {
        var info = stat()
        guard stat(paths.destination, &info) == 0 else { return errno == 0 ? ENOTDIR : errno }
        return (info.st_mode & S_IFMT) == S_IFDIR ? nil : ENOTDIR
    }

    private static func look(at paths: DownloadPaths) -> Folder {
        if let failure = check(paths) { return Folder(failure: failure, namesWithState: []) }
        var names = Set<String>()
        if let directory = opendir(paths.partialDirectory) {
            defer { closedir(directory) }
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name.hasSuffix(".part") {
                    names.insert(String(name.dropLast(5)))
                } else if name.hasSuffix(".part.meta") {
                    names.insert(String(name.dropLast(10)))
                }
            }
        }
        return Folder(failure: nil, namesWithState: names)
    }
}
