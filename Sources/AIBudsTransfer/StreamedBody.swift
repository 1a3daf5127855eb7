import Foundation

/// A download's body going to a ``DownloadSink``: the ``DownloadBody`` the engine writes to
/// when the request has a sink, with no local file at all.
struct StreamedBody: DownloadBody {
    let sink: any DownloadSink
    let url: String
    private(set) var length: Int64 = 0
    var validator: PartialFile.Validator?
    /// Whether the sink heard of this response's body (`begin`) since the last `restart`.
    private var begun = false
    private var finished = false

    /// A body continuing from `resume` (what the sink kept from an earlier download), or from 0.
    init(sink: any DownloadSink, url: String, resume: DownloadSinkResume?) {
        self.sink = sink
        self.url = url
        if let resume, resume.offset > 0 {
            length = resume.offset
            validator = PartialFile.Validator(url: url, etag: resume.etag, size: resume.size)
            begun = true
        }
    }

    var alignment: Int { 1 }

    var keepsBytesForResume: Bool { length > 0 && validator != nil }

    mutating func restart() throws {
        length = 0
        validator = nil
        begun = false
    }

    mutating func recordValidator(size: Int64) throws {
        try call { try sink.begin(at: length, etag: validator?.etag, size: size) }
        begun = true
    }

    mutating func useDirectWrites(forComing bytes: Int64) {}

    mutating func append(from buffer: UnsafeMutableRawBufferPointer, count: Int, final: Bool) throws -> Int {
        guard count > 0 else { return 0 }
        try call { try sink.write(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) }
        length += Int64(count)
        return count
    }

    mutating func finalizeDigest() -> [UInt8] { sink.digest() }

    mutating func finish(overwrite: Bool, sha256: [UInt8]) throws -> DownloadBodyEnd {
        let stored = try call { try sink.finish(sha256: sha256) }
        finished = true
        return .stored(stored)
    }

    func saveValidator() {}

    mutating func discard() {
        guard !finished else { return }
        finished = true
        sink.discard()
    }

    mutating func close() {
        guard !finished else { return }
        finished = true
        sink.suspend()
    }

    /// Runs a sink call; its failure is the engine's `TransferError` (`sinkFailed` unless it is one).
    private func call<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as TransferError {
            throw error
        } catch {
            throw TransferError(.sinkFailed, "storing the bytes of \(url) failed: \(error)", underlying: error)
        }
    }
}
