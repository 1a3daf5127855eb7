import Foundation

/// Where one download's bytes go as they arrive, in order: a partial file on disk
/// (``PartialFile``) or a caller's sink (``StreamedBody``). The engine's requests, resumes and
/// checks are the same for both.
protocol DownloadBody {
    /// The file's URL, saved with its validator.
    var url: String { get }
    /// Bytes taken so far, from byte 0.
    var length: Int64 { get }
    /// The validator of those bytes, when known.
    var validator: PartialFile.Validator? { get set }
    /// The multiple of which every write but the last must be.
    var alignment: Int { get }
    /// Whether a later download can resume from the bytes taken (for the cancel's message).
    var keepsBytesForResume: Bool { get }

    /// Drops the bytes to start from byte 0.
    mutating func restart() throws
    /// Makes the resume state say what the coming body belongs to, before its first byte; the
    /// file has `size` bytes (known from the response even without a validator).
    mutating func recordValidator(size: Int64) throws
    /// Prepares for a body of `bytes` (a partial file may then write around the page cache).
    mutating func useDirectWrites(forComing bytes: Int64)
    /// Takes the first `count` bytes of `buffer`; unless `final`, only whole `alignment` blocks.
    /// Returns how many it took.
    mutating func append(from buffer: UnsafeMutableRawBufferPointer, count: Int, final: Bool) throws -> Int
    /// The SHA-256 of every byte taken; no bytes are taken afterwards.
    mutating func finalizeDigest() -> [UInt8]
    /// Hands the verified bytes over: a partial file for its commit, or a sink's stored bytes.
    mutating func finish(overwrite: Bool, sha256: [UInt8]) throws -> DownloadBodyEnd
    /// Keeps the resume state of an unfinished download.
    func saveValidator()
    /// Drops the bytes and their resume state (known wrong, or none).
    mutating func discard()
    /// Lets go, keeping what can be resumed.
    mutating func close()
}

/// How a verified download ends.
enum DownloadBodyEnd {
    /// A partial file waits for its commit (durability and its final name).
    case commit(PendingCommit)
    /// A sink stored the bytes at this URL; nothing is left to commit.
    case stored(URL)
}
