import AIBudsFoundation
import Foundation

/// One thing that happened in a station's import from many devices, tagged with the device it
/// belongs to (its ``MediaImportControlChannel/mediaImportDeviceID``).
public enum FleetImportEvent: Sendable {
    /// A step of preparing the device's transfer session and listing its media.
    case fetch(deviceID: String, MediaFetchEvent)
    /// The device's import starts: the files it will import (after `onlyNew` removed those its
    /// ledger has), those skipped, its own folder, and the transfers granted it as its fair share.
    case started(deviceID: String, files: [MediaFileInfoModel], skipped: [MediaFileInfoModel], destination: URL, concurrentTransfers: Int)
    /// An event of the device's import, exactly as ``MediaImportEngine/importEvents(_:options:)``
    /// reports it (its `completed` included).
    case progress(deviceID: String, MediaImportEvent)
    /// A file imported from the device was stored in the object store: the model's
    /// ``/AIBudsFoundation/ImportedMediaFileModel/objectURL`` says where (the stabilized copy follows in the result).
    case stored(deviceID: String, ImportedMediaFileModel)
    /// The device is done (imported, failed or cancelled); its transfer session has ended.
    case finished(FleetDeviceResult)
}

/// How the import from one device of a station ended.
public struct FleetDeviceResult: Sendable {
    /// The device's ledger identifier.
    public var deviceID: String
    /// The device's own folder under the station's destination (for an object store, the
    /// staging folder of its downloads).
    public var destination: URL
    /// Where the device's files went, for people: the folder's path, or the object store's
    /// location (`s3://BUCKET/PREFIX/<device id>/`).
    public var location: String
    /// The files the import was asked to import.
    public var requested: [MediaFileInfoModel]
    /// The files left out because the device's ledger has them (`onlyNew`).
    public var skipped: [MediaFileInfoModel]
    /// The import's result; `nil` when the device failed before importing (see ``error``).
    public var result: MediaImportResult?
    /// Why the device failed before or while importing, if it did.
    public var error: AIBudsError?
    /// The device's ledger, when it could be opened.
    public var ledger: ImportLedger?

    /// Creates a device result (the scheduler makes them; public for apps that test against them).
    public init(
        deviceID: String, destination: URL, requested: [MediaFileInfoModel] = [], skipped: [MediaFileInfoModel] = [],
        result: MediaImportResult? = nil, error: AIBudsError? = nil, ledger: ImportLedger? = nil
    ) {
        self.deviceID = deviceID
        self.destination = destination
        self.location = destination.path
        self.requested = requested
        self.skipped = skipped
        self.result = result
        self.error = error
        self.ledger = ledger
    }

    /// Whether every requested file was imported and recorded.
    public var success: Bool { error == nil && (result?.success ?? false) && result?.ledgerError == nil }
}
