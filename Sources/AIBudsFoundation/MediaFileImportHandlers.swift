import Foundation

// The callbacks of `DeviceMediaFileImportAPI` (the vendor's published import API), in the order the
// pipeline calls them.

/// Called when hotspot configuration starts.
public typealias AIBudsMediaFileImportConfigureHotspotStartingHandler = @Sendable () -> Void

/// Called when hotspot configuration completes.
public typealias AIBudsMediaFileImportHotspotConfigureCompletionHandler =
    @Sendable (_ success: Bool, _ error: NSError?) -> Void

/// Called when entering file-transfer mode starts.
public typealias AIBudsEnterMediaFileTransferModeStartingHandler = @Sendable () -> Void

/// Called when entering file-transfer mode completes.
public typealias AIBudsEnterMediaFileTransferModeCompletionHandler =
    @Sendable (_ success: Bool, _ error: NSError?) -> Void

/// Called when the SDK starts waiting for the device hotspot to open.
public typealias AIBudsMediaFileImportStartingToWaitForHotspotOpenHandler = @Sendable () -> Void

/// Called when joining the device hotspot starts, with its SSID.
public typealias AIBudsMediaFileImportConnectDeviceHotspotStartingHandler = @Sendable (_ ssid: String) -> Void

/// Called when joining the device hotspot completes.
public typealias AIBudsMediaFileImportDeviceHotspotConnectCompletionHandler =
    @Sendable (_ success: Bool, _ error: NSError?) -> Void

/// Called once when fetching the media list completes, with the models that are valid import inputs.
public typealias AIBudsMediaFileImportFetchMediaFilesInfoCompletionHandler =
    @Sendable (_ success: Bool, _ mediaFiles: [MediaFileInfoModel], _ error: NSError?) -> Void

/// Called for each received data chunk: the chunk (`nil` on error), the task id, the file URL, the
/// file's total size, the bytes transferred so far, and the error.
public typealias AIBudsMediaFileImportDataChunkHandler =
    @Sendable (
        _ dataChunk: Data?, _ taskId: String, _ fileUrl: String, _ fileSize: UInt64, _ transferredSize: UInt64,
        _ error: NSError?
    ) -> Void

/// Called when one file's transfer starts.
public typealias AIBudsMediaFileImportSingleTransferStartingHandler = @Sendable (_ mediaFile: MediaFileInfoModel) -> Void

/// Called when one file's transfer completes, with its local result.
public typealias AIBudsMediaFileImportSingleTransferCompletionHandler =
    @Sendable (_ success: Bool, _ importedMediaFile: ImportedMediaFileModel, _ error: NSError?) -> Void

/// Called when the transfer speed changes, in bytes per second.
public typealias AIBudsMediaFileImportTransferSpeedHandler = @Sendable (_ speed: UInt64) -> Void

/// Called as each file of the batch starts: its zero-based index in the selection and the count.
///
/// Each file that starts is reported once, in increasing index order (files found already
/// imported included), so `index + 1` of `total` counts files begun; after a cancellation the
/// files left out are not reported. Several files transfer at once (six by
/// default, `MediaImportOptions.maximumConcurrentTransfers`), so the file just announced is the
/// newest of those in flight, not the only one: where a one-at-a-time import reports file 2 when
/// file 1 is done, this one reports files 1 to 6 within moments, then file 7 as the first ends.
/// Per-file progress comes from the single-transfer handlers; set the maximum to 1 for the
/// one-at-a-time sequence.
public typealias AIBudsMediaFileImportTransferBatchProgressHandler =
    @Sendable (_ fileIndex: Int, _ totalFileCount: Int) -> Void

/// Called when the video stabilization phase begins: once per import, after every transfer has
/// ended, and only when at least one imported video goes to the stabilization plugin (a video with
/// six-axis data while a plugin is registered and stabilization is on). When none does, neither
/// this nor the phase's finish handler is called; each file's `stabilizationStatus` says why.
public typealias AIBudsVideoStabilizationPhaseBeginHandler = @Sendable () -> Void

/// Called with the stabilization progress of one video, 0.0 through 1.0.
public typealias AIBudsVideoStabilizationProgressHandler =
    @Sendable (_ mediaFile: ImportedMediaFileModel, _ progress: Double) -> Void

/// Called when one video finishes stabilization, with its updated model.
public typealias AIBudsVideoStabilizationSingleFileCompletionHandler =
    @Sendable (_ mediaFile: ImportedMediaFileModel, _ success: Bool) -> Void

/// Called with the stabilization batch position: zero-based index and count.
public typealias AIBudsVideoStabilizationBatchProgressHandler =
    @Sendable (_ fileIndex: Int, _ totalFileCount: Int) -> Void

/// Called when the video stabilization phase finishes, always after its begin handler (never
/// without it), also when the import is cancelled during the phase; the import's completion
/// follows. Cancelled during the phase, the import completes with `success` false and error 6100
/// (`importFilesCanceled`): its imported files are in the completion, the video being stabilized
/// with `stabilizationStatus` `.failed` and the ones after it `.pending`, each original file
/// kept.
public typealias AIBudsVideoStabilizationPhaseFinishHandler = @Sendable () -> Void

/// Called once when the import completes, with the successfully imported files.
public typealias AIBudsMediaFileImportCompletionHandler =
    @Sendable (_ success: Bool, _ mediaFiles: [ImportedMediaFileModel], _ error: NSError?) -> Void
