import AIBudsFoundation
import AIBudsTransfer
import Foundation

/// An object store that a station imports into (the S3 destination of the `AIBudsS3` module
/// implements it): every verified file is stored once under its device's place, with its SHA-256,
/// and a ledger beside the objects says what each device's files became.
///
/// Calls block the calling thread (they are network requests); the scheduler makes them off Swift
/// concurrency's threads.
public protocol MediaObjectStore: Sendable {
    /// Where a device's objects go, for people and reports (`s3://BUCKET/PREFIX/DEVICE/`).
    func location(ofDevice deviceID: String) -> String

    /// Whether the store's ledger has the device file `name` of `size` bytes (for `onlyNew`).
    func hasImported(deviceID: String, name: String, size: UInt64) throws -> Bool

    /// Where the device file `name` (`size` bytes with the device's SHA-256 `sha256`) goes when
    /// its bytes are streamed from the device, with no local copy: `.stored` when the store holds
    /// these bytes already (nothing to download), else a sink the download writes into, which
    /// stores the object once the bytes are verified (and records it in the ledger).
    func streamTarget(deviceID: String, name: String, size: UInt64, sha256: [UInt8]) throws -> MediaObjectStreamTarget

    /// Stores the verified file at `file`, whose bytes have SHA-256 `sha256` (the device's), as the
    /// device's `name` (`companion` is a copy made from it, such as the stabilized video, stored
    /// beside it under `companionName`); returns the URL of the object. An object that already
    /// holds these bytes is not stored again; a file is never stored twice, also by two stations.
    func store(
        file: URL, deviceID: String, name: String, sha256: [UInt8], companionName: String?
    ) throws -> URL
}

/// Where a streamed device file goes.
public enum MediaObjectStreamTarget: Sendable {
    /// The store already holds these bytes, at this URL: nothing to download.
    case stored(URL)
    /// The download writes the bytes into this sink, which stores them.
    case sink(any DownloadSink)
}

/// An object store and the device whose files an import streams into it.
public struct MediaObjectStreaming: Sendable {
    /// The object store the files go into.
    public var store: any MediaObjectStore
    /// The device's id, under which its objects and ledger live.
    public var deviceID: String

    /// Streams the files of device `deviceID` into `store`.
    public init(store: any MediaObjectStore, deviceID: String) {
        self.store = store
        self.deviceID = deviceID
    }
}
