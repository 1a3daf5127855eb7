#if canImport(Glibc)
import Glibc
#endif

/// A catalog serving the regular files directly inside one folder, named as on disk.
///
/// The id is the inode number and the generation the modification time, so replacing or
/// rewriting a file changes its entity tag. Names with `/`, `.` and `..` are never found.
public struct DirectoryDataPlaneCatalog: DataPlaneCatalog {
    /// The folder served.
    public let directory: String

    /// Serves the files in `directory`.
    public init(directory: String) {
        self.directory = directory
    }

    /// The regular file `name` inside the folder, or nil.
    public func file(named name: String) -> DataPlaneFile? {
        guard !name.isEmpty, name != ".", name != "..", !name.contains("/"), !name.utf8.contains(0) else { return nil }
        let path = directory + "/" + name
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        let generation = UInt64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ UInt64(info.st_mtim.tv_nsec)
        let id = String(info.st_ino)
        return DataPlaneFile(id: id, size: Int64(info.st_size), etag: DataPlaneFile.etag(id: id, size: Int64(info.st_size), generation: generation), path: path)
    }
}
