import Foundation

/// Where a station's imports go.
public enum MediaImportDestination: Sendable {
    /// A local folder; each device imports into `<folder>/<device id>/`, with its ledger in
    /// `<device id>/.aibuds/`.
    case folder(URL)
    /// An object store; each file is imported verified into `staging/<device id>/` (where the
    /// engine's resumable downloads and the device's local ledger live), stored as soon as it is
    /// imported, then removed from `staging`.
    case objectStore(any MediaObjectStore, staging: URL)

    /// The place of one device below this destination.
    func forDevice(_ deviceID: String) -> URL {
        switch self {
        case .folder(let folder), .objectStore(_, let folder):
            folder.appendingPathComponent(ImportLedger.safeComponent(deviceID), isDirectory: true)
        }
    }

    /// How many files of one device are best downloaded at once, when the caller does not say.
    ///
    /// - A folder: 6, the download engine's default, which keeps a link busy across each file's
    ///   requests and round trips.
    /// - An object store: 2. Files stream into the store part by part, and a part goes as soon
    ///   as it is full. Six files at once each fill at a sixth of the link, so the store waited
    ///   1.8 s for the first parts of the eight-device benchmark, against 0.5 s with one or two
    ///   files at once. Two rather than one keep the link busy while a file's last part and
    ///   `Complete` go. Memory is lower too: 270 MiB against 300 (docs/benchmarks.md).
    public var preferredTransfersPerDevice: Int {
        switch self {
        case .folder: 6
        case .objectStore: 1
        }
    }

    /// The object store, when the import goes to one.
    var store: (any MediaObjectStore)? {
        if case .objectStore(let store, _) = self { return store }
        return nil
    }
}
