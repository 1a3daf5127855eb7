#if canImport(Glibc)
import Glibc
#endif

/// An error of the HTTP download engine: what failed, in words, and the cause underneath.
///
/// The import engine maps the codes to the vendor's file-import codes (`SdkErrorCode`, the
/// 60xx range of the vendor's published SDK): `connectionFailed` → 6010 network error,
/// `invalidResponse`, `sizeMismatch`, `checksumMismatch` → 6011 invalid response,
/// `httpStatus` → 6012 HTTP error, `connectionLost`, `stalled`, `responseHeadTimeout` → 6013
/// hotspot connection lost,
/// `invalidURL` → 6014 invalid URL, `sinkFailed` → the generic file-import failure.
public struct TransferError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public enum Code: String, Hashable, Sendable {
        /// The URL is not `http://HOST:PORT/…` with a numeric host.
        case invalidURL
        /// No connection could be made to the device.
        case connectionFailed
        /// The connection dropped and retries ran out.
        case connectionLost
        /// A response body came slower than the configured minimum rate for the stall timeout
        /// (`HTTPFileDownloader.Configuration.stallTimeout`), and retries ran out.
        case stalled
        /// No whole response head came within `HTTPFileDownloader.Configuration.responseHeadTimeout`
        /// (a peer that accepts and never answers), and retries ran out.
        case responseHeadTimeout
        /// The device answered something that is not a valid response to the request.
        case invalidResponse
        /// The device answered with an error status (`httpStatus` says which).
        case httpStatus
        /// The downloaded size differs from the expected one.
        case sizeMismatch
        /// The SHA-256 of the downloaded bytes differs from the expected one.
        case checksumMismatch
        /// The destination file exists and overwriting was not asked for.
        case fileExists
        /// The device file name cannot become a safe local name.
        case unsafeFileName
        /// Reading or writing a local file failed (a read-only folder, a full disk).
        case localFileError
        /// The request's ``DownloadSink`` failed (an object store refused the bytes or could not
        /// be reached).
        case sinkFailed
        /// The download was cancelled; its partial file remains for a resume.
        case cancelled
    }

    /// What kind of failure this is.
    public var code: Code
    /// A sentence describing it.
    public var message: String
    /// The status code of the response that failed the download, when the error is an HTTP status.
    public var httpStatus: Int?
    /// The error underneath (a `NetError`, an `HTTPError`, an errno).
    public var underlying: (any Error)?

    /// An error of kind `code`; `httpStatus` goes with `.httpStatus`, `underlying` is the cause kept
    /// for diagnostics (a `NetError`, an `HTTPError`, a `FileSystemFailure`).
    public init(_ code: Code, _ message: String, httpStatus: Int? = nil, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.httpStatus = httpStatus
        self.underlying = underlying
    }

    /// The code, message and cause in one line.
    public var description: String {
        var text = "\(code.rawValue): \(message)"
        if let underlying { text += " (\(underlying))" }
        return text
    }
}

/// A failed local file operation, with its `errno`.
public struct FileSystemFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The operation, such as `write`.
    public var operation: String
    /// The path involved.
    public var path: String
    /// The `errno` reported.
    public var errno: Int32

    /// A failure of `operation` on `path` with the `errno` the system reported.
    public init(operation: String, path: String, errno: Int32) {
        self.operation = operation
        self.path = path
        self.errno = errno
    }

    /// `operation path: strerror`.
    public var description: String { "\(operation) \(path): \(String(cString: strerror(errno)))" }
}
