import AIBudsFoundation
import Foundation

/// Lists, imports and deletes the device's media over its hotspot.
///
/// The members are exactly those of the vendor's published media-import API ("Import Media Files":
/// configure the hotspot, enter transfer mode, join the hotspot, fetch the media models, import a
/// selection of them, optionally stabilize videos). The import engine that implements them lives in
/// this module; devices whose profile has the `mediaImport` capability conform.
public protocol DeviceMediaFileImportAPI: DeviceAPI {
    /// Whether SDK-internal video stabilization is available for media file import.
    ///
    /// `true` only when a stabilization plugin is registered and stabilization is not explicitly
    /// disabled. When `false`, imported six-axis files are returned with `stabilizationStatus`
    /// `.disabled` (or `.pluginUnavailable`).
    var isVideoStabilizationAvailable: Bool { get }

    /// Prepares transfer mode (configure hotspot, enter transfer mode, wait for the hotspot, join it)
    /// and returns the device's media models, the only valid inputs of ``importMediaFiles(_:dataChunkHandler:singleTransferStartingHandler:singleTransferCompletionHandler:transferSpeedHandler:transferBatchProgressHandler:videoStabilizationPhaseBeginHandler:videoStabilizationSingleFileProgressHandler:videoStabilizationSingleFileCompletionHandler:videoStabilizationBatchProgressHandler:videoStabilizationPhaseFinishHandler:completionHandler:)``.
    func fetchMediaFilesInfo(
        configureHotspotStartingHandler: AIBudsMediaFileImportConfigureHotspotStartingHandler?,
        hotspotConfigureCompletionHandler: AIBudsMediaFileImportHotspotConfigureCompletionHandler?,
        enterFileTransferModeStartingHandler: AIBudsEnterMediaFileTransferModeStartingHandler?,
        enterFileTransferModeCompletedHandler: AIBudsEnterMediaFileTransferModeCompletionHandler?,
        waitingForHotspotOpenHandler: AIBudsMediaFileImportStartingToWaitForHotspotOpenHandler?,
        connectDeviceHotspotStartingHandler: AIBudsMediaFileImportConnectDeviceHotspotStartingHandler?,
        deviceHotspotConnectCompletionHandler: AIBudsMediaFileImportDeviceHotspotConnectCompletionHandler?,
        completionHandler: AIBudsMediaFileImportFetchMediaFilesInfoCompletionHandler?
    )

    /// Downloads the selected files, then optionally stabilizes videos with six-axis data; the
    /// completion runs once with the successfully imported files.
    func importMediaFiles(
        _ mediaFiles: [MediaFileInfoModel],
        dataChunkHandler: AIBudsMediaFileImportDataChunkHandler?,
        singleTransferStartingHandler: AIBudsMediaFileImportSingleTransferStartingHandler?,
        singleTransferCompletionHandler: AIBudsMediaFileImportSingleTransferCompletionHandler?,
        transferSpeedHandler: AIBudsMediaFileImportTransferSpeedHandler?,
        transferBatchProgressHandler: AIBudsMediaFileImportTransferBatchProgressHandler?,
        videoStabilizationPhaseBeginHandler: AIBudsVideoStabilizationPhaseBeginHandler?,
        videoStabilizationSingleFileProgressHandler: AIBudsVideoStabilizationProgressHandler?,
        videoStabilizationSingleFileCompletionHandler: AIBudsVideoStabilizationSingleFileCompletionHandler?,
        videoStabilizationBatchProgressHandler: AIBudsVideoStabilizationBatchProgressHandler?,
        videoStabilizationPhaseFinishHandler: AIBudsVideoStabilizationPhaseFinishHandler?,
        completionHandler: AIBudsMediaFileImportCompletionHandler?
    )

    /// Cancels the running transfer or post-processing.
    func cancelMediaFileImport(_ completion: AIBudsStatusCodeCompletionHandler?)

    /// Deletes one device file by its device file name.
    func deleteMediaFile(_ fileName: String, completion: AIBudsStatusCodeCompletionHandler?)

    /// Empties the device's media storage of every type; the completion gets the device's status
    /// code. Lists fetched before are stale afterwards.
    func deleteAllMediaFiles(_ completion: AIBudsStatusCodeCompletionHandler?)
}

/// The name the vendor's architecture overview gives ``DeviceMediaFileImportAPI``; both name one
/// protocol, so code written against either compiles.
public typealias DeviceFileImportAPI = DeviceMediaFileImportAPI
