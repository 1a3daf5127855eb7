import AIBudsFoundation
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

    /// Stores the verified file at `file`, whose bytes have SHA-256 `sha256` (the device's), as the
    /// device's `name` (`companion` is a copy made from it, such as the stabilized video, stored
    /// beside it under `companionName`); returns the URL of the object. An object that already
    /// holds these bytes is not stored again; a file is never stored twice, also by two stations.
    func store(
        file: URL, deviceID: String, name: String, sha256: [UInt8], companionName: String?
    ) throws -> URL
}
