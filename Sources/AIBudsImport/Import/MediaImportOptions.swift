import Foundation
import AIBudsTransfer

/// How `importMediaFiles` runs.
public struct MediaImportOptions: Sendable {
    /// The folder the files land in; `nil` means the engine's default, a per-device folder under
    /// the temporary directory (copy files out of it to keep them).
    public var destination: URL?
    /// How many files download at once; the default is the download engine's measured best
    /// (`HTTPFileDownloader.Configuration.parallelism`).
    public var maximumConcurrentTransfers: Int
    /// Whether ``MediaImportChunk/data`` carries the bytes (costs a copy per chunk).
    public var deliversChunkData: Bool
    /// Whether each file's SHA-256 is checked against the device's before the file is committed.
    public var verifiesDeviceHash: Bool
    /// The ledger that records every verified file, if any.
    public var ledger: ImportLedger?
    /// Whether files that were imported and verified are then deleted from the device.
    public var deletesVerifiedFilesFromDevice: Bool
    /// How often the batch's transfer speed is reported.
    public var speedReportInterval: Duration
    /// Whether the import reports its progress: every event but `completed` (`batchProgress`,
    /// `fileStarted`, `chunk`, `fileFinished`, `speed` and the stabilization events). `false` for a
    /// consumer that only waits for the result (such as `aibuds media import --json`): the import
    /// then builds and queues none of those thousands of events.
    public var reportsProgress: Bool
    /// The lock of ``destination`` that the caller already holds (``ImportDestinationLock/acquire(_:waiting:)``),
    /// which the import then uses instead of taking its own; nil: the import takes it (waiting
    /// while another import into the folder runs).
    public var destinationLock: ImportDestinationLock?
    /// An object store that files go into straight from the device, without a local copy, when
    /// the device gave their SHA-256 and no stabilization needs them on disk; such a file's
    /// ``/AIBudsFoundation/ImportedMediaFileModel/objectURL`` (and `localFileURL`) is its object's URL. Other files
    /// are imported into ``destination`` as usual.
    public var streaming: MediaObjectStreaming?

    /// Creates options; the defaults import into the temporary folder, as many files at a time
    /// as the download engine's default, verified, without chunk bytes, a ledger or deletion.
    public init(
        destination: URL? = nil, maximumConcurrentTransfers: Int = HTTPFileDownloader.Configuration().parallelism, deliversChunkData: Bool = false,
        verifiesDeviceHash: Bool = true, ledger: ImportLedger? = nil, deletesVerifiedFilesFromDevice: Bool = false,
        speedReportInterval: Duration = .milliseconds(250), reportsProgress: Bool = true
    ) {
        self.destination = destination
        self.maximumConcurrentTransfers = maximumConcurrentTransfers
        self.deliversChunkData = deliversChunkData
        self.verifiesDeviceHash = verifiesDeviceHash
        self.ledger = ledger
        self.deletesVerifiedFilesFromDevice = deletesVerifiedFilesFromDevice
        self.speedReportInterval = speedReportInterval
        self.reportsProgress = reportsProgress
    }
}
