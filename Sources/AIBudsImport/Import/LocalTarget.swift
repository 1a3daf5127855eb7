import AIBudsDigest
import AIBudsTransfer
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Where one downloaded file goes: a free local name, or an identical file already there.
///
/// Downloads never overwrite: when `name` is taken by a different file, the next free
/// `name (2).ext`, `name (3).ext`, … is used; a file there with the device's size and SHA-256 is
/// recognised as already imported.
enum LocalTarget: Sendable, Equatable {
    /// Download into this (free) local name.
    case fresh(localName: String)
    /// This file already holds exactly the device's bytes (this SHA-256).
    case alreadyPresent(URL, sha256: [UInt8])

    /// The local name to download into (for `.alreadyPresent`, the existing file's name).
    var localName: String {
        switch self {
        case .fresh(let name): name
        case .alreadyPresent(let url, _): url.lastPathComponent
        }
    }

    /// Picks the target for `name` in `directory`; an existing file counts as the same only when
    /// `size` and `sha256` are known and match.
    static func choose(in directory: URL, name: String, size: UInt64?, sha256: [UInt8]?) throws -> LocalTarget {
        try choose(in: directory, path: directory.path, name: name, size: size, sha256: sha256)
    }

    /// `choose(in:name:size:sha256:)` with the folder's path already worked out (`folder`, once
    /// per batch rather than once per file).
    /// A name for which `isAvailable` is false (another file of the same import aims at it) is
    /// passed over like a name taken on disk.
    static func choose(
        in directory: URL, path folder: String, name: String, size: UInt64?, sha256: [UInt8]?,
        isAvailable: (String) -> Bool = { _ in true }
    ) throws -> LocalTarget {
        for counter in 1...10_000 {
            let candidate = counter == 1 ? name : SafeFileName.numbered(name, counter)
            guard isAvailable(candidate) else { continue }
            var info = stat()
            // Anything at the name, a dangling symbolic link included, takes it.
            guard lstat(folder + "/" + candidate, &info) == 0 else { return .fresh(localName: candidate) }
            if let size, let sha256, (info.st_mode & S_IFMT) == S_IFREG, UInt64(info.st_size) == size {
                let url = directory.appendingPathComponent(candidate, isDirectory: false)
                if try SHA256.hash(fileAt: url) == sha256 { return .alreadyPresent(url, sha256: sha256) }
            }
        }
        throw CocoaError(.fileWriteFileExists, userInfo: [NSFilePathErrorKey: directory.appendingPathComponent(name).path])
    }

}
