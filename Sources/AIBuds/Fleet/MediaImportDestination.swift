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

    /// The object store, when the import goes to one.
    var store: (any MediaObjectStore)? {
        if case .objectStore(let store, _) = self { return store }
        return nil
    }
}
