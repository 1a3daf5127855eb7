import Foundation

/// Where a download's bytes go instead of a local file: a caller's store that takes them in order
/// as they arrive (an object store's multipart upload), hashes them, and keeps what it stored
/// across a drop or a stopped process so that the download resumes after it.
///
/// The engine calls it from the one worker thread that runs the file, in this order:
/// ``resumePoint()`` once, then for each response ``begin(at:etag:size:)`` followed by
/// ``write(_:)`` calls, then ``digest()`` and ``finish(sha256:)`` for bytes it verified, or
/// ``suspend()`` (a drop that ends the download, a cancel) or ``discard()`` (bytes known wrong).
/// Throwing from any call ends the download with `TransferError.sinkFailed` carrying the error,
/// unless the error is a `TransferError` itself.
public protocol DownloadSink: AnyObject, Sendable {
    /// What an earlier download left stored, to continue from; `nil` to start at byte 0.
    func resumePoint() throws -> DownloadSinkResume?

    /// A response's body is about to be written from byte `offset`: the sink's length, or 0 to
    /// start over (the file changed, or has no validator), dropping what it held. `etag` is the
    /// device's validator of the file (`nil`: the bytes cannot be resumed later), `size` its size.
    func begin(at offset: Int64, etag: String?, size: Int64) throws

    /// The next bytes of the file, in order.
    func write(_ bytes: UnsafeRawBufferPointer) throws

    /// The SHA-256 of every byte written since byte 0, a resumed run's included; called once,
    /// after the last byte.
    func digest() -> [UInt8]

    /// Keeps the bytes for good, now that their size and `sha256` were checked against the
    /// device's; returns where they are (an object's URL).
    func finish(sha256: [UInt8]) throws -> URL

    /// The download stops before the end (a drop it gave up on, a cancel): keep what can be
    /// resumed and let go of the rest.
    func suspend()

    /// The bytes are wrong (size or digest): drop everything, resumable state included.
    func discard()
}

/// Where an earlier download into a ``DownloadSink`` stopped.
public struct DownloadSinkResume: Sendable, Hashable {
    /// Bytes the sink holds, from byte 0; the download asks for the rest (`Range`).
    public var offset: Int64
    /// The device's validator of those bytes (`If-Range`): a changed file is sent whole.
    public var etag: String
    /// The file's size when those bytes came.
    public var size: Int64

    /// A resume after `offset` bytes of the file of `size` bytes that the device called `etag`.
    public init(offset: Int64, etag: String, size: Int64) {
        self.offset = offset
        self.etag = etag
        self.size = size
    }
}
