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
    /// - An object store: 2. Files stream into the store part by part, and a part goes as soon as
    ///   it is full: the fewer files at once, the sooner each fills its parts. Measured with the
    ///   eight-device benchmark (docs/benchmarks.md): the store got its first part 0.5 s after
    ///   the start with one file per device, 0.9 s with two, 1.8 s with six, and the import took
    ///   0.94–1.21× the time of `aws s3 cp` from a local copy with one, 0.97–1.04× with two (the
    ///   importer peaking at 200 and 270 MiB). Two rather than one: while a file's last part and
    ///   its `Complete` (or a small file's single `PUT` and ledger entry) travel to the store, the
    ///   other file keeps the link busy; on a store far away that is several round trips a file.
    public var preferredTransfersPerDevice: Int {
        switch self {
        case .folder: 6
        case .objectStore: 2
        }
    }

    /// The object store, when the import goes to one.
    var store: (any MediaObjectStore)? {
        if case .objectStore(let store, _) = self { return store }
        return nil
    }
}
