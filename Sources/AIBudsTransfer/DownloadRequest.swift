import Foundation

/// One file to download: which device file on which data plane, where to, and what it must be.
public struct DownloadRequest: Sendable {
    /// The device's data plane (address and bearer token), parsed once per transfer session.
    public var endpoint: DataPlaneEndpoint
    /// The file's name on the device, exactly as listed; percent-encoded only into the request.
    public var deviceFileName: String
    /// The folder the file lands in. A file over the engine's unnamed-file limit (1 MiB) is held
    /// in its `.partial` subfolder while it downloads; a smaller new one is unnamed until committed.
    public var destinationDirectory: URL {
        didSet { destinationPath = DownloadRequest.path(of: destinationDirectory) }
    }
    /// `destinationDirectory`'s file-system path without a trailing `/`, worked out once per folder
    /// (a copy of a request keeps it), not once per file.
    public private(set) var destinationPath: String
    /// The local file name; must be safe (see `SafeFileName`).
    public var localName: String
    /// The size the device reported, checked before the file is committed.
    public var expectedSize: Int64?
    /// The SHA-256 the device reported, checked before the file is committed.
    public var expectedSHA256: [UInt8]?
    /// Whether an existing file of the same name may be replaced.
    public var overwrite: Bool
    /// Whether each progress report carries a copy of the bytes that arrived (`DownloadProgress.chunk`).
    public var reportsChunkData = false
    /// The caller found nothing at the final name just before handing the request over (the
    /// import's `LocalTarget` does), so the engine does not look again before it downloads. The
    /// commit still never replaces: the no-replace rename refuses an existing name.
    public var finalNameCheckedFree = false
    /// Where the bytes go instead of a file in `destinationDirectory`, when set: the engine
    /// streams them to the sink as they arrive (nothing is written locally), resumes from what it
    /// kept, checks size and digest as for a file, and the result's `fileURL` is the sink's.
    public var sink: (any DownloadSink)?

    /// Creates a request for the device file `deviceFileName` on the data plane `endpoint`.
    public init(
        endpoint: DataPlaneEndpoint, deviceFileName: String, destinationDirectory: URL, localName: String,
        expectedSize: Int64? = nil, expectedSHA256: [UInt8]? = nil, overwrite: Bool = false
    ) {
        self.endpoint = endpoint
        self.deviceFileName = deviceFileName
        self.destinationDirectory = destinationDirectory
        self.destinationPath = DownloadRequest.path(of: destinationDirectory)
        self.localName = localName
        self.expectedSize = expectedSize
        self.expectedSHA256 = expectedSHA256
        self.overwrite = overwrite
    }

    /// The file's URL, `http://HOST:PORT/media/<percent-encoded name>`, spelled out for messages
    /// and the saved validator of a partial file (the engine never parses it).
    public var url: String { endpoint.url(forDeviceName: deviceFileName) }

    /// Where the finished file goes.
    public var finalURL: URL { destinationDirectory.appendingPathComponent(localName, isDirectory: false) }
    /// The folder of partial files.
    public var partialDirectory: URL { destinationDirectory.appendingPathComponent(".partial", isDirectory: true) }
    /// The partial file while downloading.
    public var partialURL: URL { partialDirectory.appendingPathComponent(localName + ".part", isDirectory: false) }

    /// A folder's path without trailing `/` (`/` stays).
    static func path(of folder: URL) -> String {
        var path = folder.path
        while path.utf8.count > 1 && path.utf8.last == UInt8(ascii: "/") { path.removeLast() }
        return path
    }
}

/// The file-system paths of one download, computed once.
struct DownloadPaths: Sendable {
    /// The destination folder.
    let destination: String
    /// The local file name.
    let localName: String
    /// `<destination>/<name>`.
    let finalFile: String

    init(_ request: DownloadRequest) {
        self.init(destinationPath: request.destinationPath, localName: request.localName)
    }

    /// The paths of `localName` in the folder at `destination` (no trailing `/`).
    init(destinationPath destination: String, localName: String) {
        self.destination = destination
        self.localName = localName
        finalFile = destination + "/" + localName
    }

    // Made when asked: a small file written unnamed never needs them.

    /// `<destination>/.partial`.
    var partialDirectory: String { destination + "/.partial" }
    /// `<destination>/.partial/<name>.part`.
    var partialFile: String { destination + "/.partial/" + localName + ".part" }
    /// `<destination>/.partial/<name>.part.meta`, the saved validator.
    var metaFile: String { destination + "/.partial/" + localName + ".part.meta" }
}

/// How far one download has come.
public struct DownloadProgress: Sendable, Hashable {
    /// Bytes of the file received so far, a resume's earlier bytes included.
    public var bytesTransferred: Int64
    /// The file's size, once the device has said it.
    public var totalBytes: Int64?
    /// Bytes that arrived since the previous report.
    public var chunkBytes: Int
    /// A copy of those bytes, when the request asked for them (`reportsChunkData`).
    public var chunk: Data? = nil
}

/// A finished download.
public struct DownloadResult: Sendable, Hashable {
    /// The committed file.
    public var fileURL: URL
    /// Its path (`fileURL.path`, kept as built so that callers need not ask the URL for it).
    public var filePath: String
    /// Its size in bytes, checked against the size the device announced and the one expected.
    public var size: Int64
    /// The SHA-256 of its bytes, hashed as they arrived (before they were written).
    public var sha256: [UInt8]
    /// Body bytes received over the network, over every attempt (more than `size` when a
    /// changed file had to start again).
    public var bytesReceived: Int64
    /// Bytes that were already in the partial file when this download started.
    public var bytesResumed: Int64
    /// How many requests it took.
    public var attempts: Int
}

/// How often and how patiently a dropped download is tried again.
public struct RetryPolicy: Sendable, Hashable {
    /// Retries allowed in a row without any new byte arriving.
    public var maxRetriesWithoutProgress: Int
    /// Retries allowed in all.
    public var maxRetries: Int
    /// The first wait before a retry; it doubles after each failure without progress.
    public var initialBackoff: Duration
    /// The longest wait.
    public var maxBackoff: Duration

    /// A policy with the given limits; the defaults ride out a hotspot that drops for a few
    /// seconds without waiting long on a device that is gone.
    public init(maxRetriesWithoutProgress: Int = 5, maxRetries: Int = 50, initialBackoff: Duration = .milliseconds(50), maxBackoff: Duration = .seconds(2)) {
        self.maxRetriesWithoutProgress = maxRetriesWithoutProgress
        self.maxRetries = maxRetries
        self.initialBackoff = initialBackoff
        self.maxBackoff = maxBackoff
    }

    /// The wait before retry number `failuresWithoutProgress` (1-based).
    public func backoff(afterFailures failuresWithoutProgress: Int) -> Duration {
        var wait = initialBackoff
        for _ in 1..<max(1, failuresWithoutProgress) {
            wait = wait * 2
            if wait >= maxBackoff { return maxBackoff }
        }
        return min(wait, maxBackoff)
    }
}
