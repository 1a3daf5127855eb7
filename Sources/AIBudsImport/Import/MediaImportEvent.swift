import AIBudsFoundation
import AIBudsWire
import Foundation

/// One thing that happened during `importMediaFiles`, in order; the last event is always
/// ``completed(_:)``.
public enum MediaImportEvent: Sendable {
    /// File `index` (zero-based) of `total` is the one starting now.
    case batchProgress(index: Int, total: Int)
    /// One file's transfer starts; `taskID` names it in later ``chunk(_:)`` events.
    case fileStarted(MediaFileInfoModel, taskID: String)
    /// Bytes of one file arrived. Without ``MediaImportOptions/deliversChunkData`` a file's
    /// chunks are merged into one event every 50 ms at most; its last chunk always has one.
    case chunk(MediaImportChunk)
    /// One file's transfer ended: downloaded and verified (`error == nil`), or failed.
    case fileFinished(ImportedMediaFileModel, taskID: String, error: AIBudsError?)
    /// The smoothed transfer speed of the whole batch, in bytes per second (a few times a second).
    case speed(bytesPerSecond: UInt64)
    /// The video stabilization phase begins (only when a plugin will process at least one file).
    case stabilizationBegan
    /// Stabilization of file `index` (zero-based) of `total` starts.
    case stabilizationBatchProgress(index: Int, total: Int)
    /// Stabilization progress of one file, 0.0 through 1.0.
    case stabilizationProgress(ImportedMediaFileModel, progress: Double)
    /// One file's stabilization ended; the model carries the new status.
    case stabilizationFileFinished(ImportedMediaFileModel, success: Bool)
    /// The stabilization phase ended.
    case stabilizationFinished
    /// The import ended (completed, failed, rejected or cancelled).
    case completed(MediaImportResult)
}

/// Bytes of one file that arrived during an import.
public struct MediaImportChunk: Sendable {
    /// The file's task identifier, as in ``MediaImportEvent/fileStarted(_:taskID:)``.
    public var taskID: String
    /// The device file.
    public var mediaFile: MediaFileInfoModel
    /// The bytes, when the import was asked to deliver them (`MediaImportOptions.deliversChunkData`).
    public var data: Data?
    /// How many bytes arrived in this chunk.
    public var count: Int
    /// The file's total size in bytes.
    public var fileSize: UInt64
    /// How many bytes of the file are on disk now (resumed bytes included).
    public var transferredSize: UInt64
    /// Set on the last chunk event of a file whose transfer failed (then `data` is `nil`).
    public var error: AIBudsError?

    /// Creates a chunk description.
    public init(
        taskID: String, mediaFile: MediaFileInfoModel, data: Data?, count: Int, fileSize: UInt64, transferredSize: UInt64,
        error: AIBudsError? = nil
    ) {
        self.taskID = taskID
        self.mediaFile = mediaFile
        self.data = data
        self.count = count
        self.fileSize = fileSize
        self.transferredSize = transferredSize
        self.error = error
    }
}

/// How one import ended.
public struct MediaImportResult: Sendable {
    /// The files that were downloaded and verified, in the order they were requested.
    public var importedFiles: [ImportedMediaFileModel]
    /// The requested files that were not imported, with why.
    public var failures: [MediaImportFailure]
    /// `nil` when every requested file was imported; else the reason (the first failure, a
    /// cancellation (6100), or why the import could not start).
    public var error: AIBudsError?
    /// How many bytes were fetched over the network per device file name (resumed bytes
    /// excluded), keyed by exact name: NFC and NFD twins are two entries.
    public var bytesFetched: [MediaFileName: UInt64]
    /// Why the import ledger (``MediaImportOptions/ledger``) could not record some of the imported
    /// files (a full disk, say), or `nil`: the files are imported all the same, but a later
    /// `--new` import does not know them from the ledger.
    public var ledgerError: AIBudsError?

    /// Creates the outcome of one import: the files that arrived, the ones that failed, the error
    /// that ended it early (if any) and the bytes fetched per file.
    public init(importedFiles: [ImportedMediaFileModel], failures: [MediaImportFailure], error: AIBudsError?, bytesFetched: [MediaFileName: UInt64] = [:]) {
        self.importedFiles = importedFiles
        self.failures = failures
        self.error = error
        self.bytesFetched = bytesFetched
    }

    /// The bytes fetched for `file` (0 when none were).
    public func bytesFetched(for file: MediaFileInfoModel) -> UInt64 { bytesFetched[MediaFileName(file.fileName)] ?? 0 }

    /// Whether every requested file was imported.
    public var success: Bool { error == nil }

    /// A result for an import that never started.
    static func rejected(_ error: AIBudsError) -> MediaImportResult {
        MediaImportResult(importedFiles: [], failures: [], error: error)
    }
}

/// A requested file that was not imported.
public struct MediaImportFailure: Sendable {
    /// The device file.
    public var mediaFile: MediaFileInfoModel
    /// Why it was not imported.
    public var error: AIBudsError

    /// Records that `mediaFile` could not be imported, and why.
    public init(mediaFile: MediaFileInfoModel, error: AIBudsError) {
        self.mediaFile = mediaFile
        self.error = error
    }
}
