import Foundation

/// Where a station's imports go.
public enum MediaImportDestination: Sendable {
    /// A local folder; each device imports into `<folder>/<device id>/`, with its ledger in
    /// `<device id>/.aibuds/`.
    case folder(URL)

    /// The place of one device below this destination.
    func forDevice(_ deviceID: String) -> URL {
        switch self {
        case .folder(let folder): folder.appendingPathComponent(ImportLedger.safeComponent(deviceID), isDirectory: true)
        }
    }
}
