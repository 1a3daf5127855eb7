import AIBudsFoundation
import Foundation
import Synchronization

extension MediaImportControlChannel {
    /// This device's media import engine (one per device, created on first use).
    public var mediaImport: MediaImportEngine { MediaImportEngines.engine(for: self) }
}

/// A device that adopts ``MediaImportControlChannel`` gets every member of
/// ``DeviceMediaFileImportAPI`` from its ``MediaImportControlChannel/mediaImport`` engine.
extension DeviceMediaFileImportAPI where Self: MediaImportControlChannel {
    /// `true` only when a stabilization plugin is registered and stabilization is not disabled.
    public var isVideoStabilizationAvailable: Bool { mediaImport.isVideoStabilizationAvailable }

    /// Prepares transfer mode and returns the device's media models.
    public func fetchMediaFilesInfo(
        configureHotspotStartingHandler: AIBudsMediaFileImportConfigureHotspotStartingHandler?,
        hotspotConfigureCompletionHandler: AIBudsMediaFileImportHotspotConfigureCompletionHandler?,
        enterFileTransferModeStartingHandler: AIBudsEnterMediaFileTransferModeStartingHandler?,
        enterFileTransferModeCompletedHandler: AIBudsEnterMediaFileTransferModeCompletionHandler?,
        waitingForHotspotOpenHandler: AIBudsMediaFileImportStartingToWaitForHotspotOpenHandler?,
        connectDeviceHotspotStartingHandler: AIBudsMediaFileImportConnectDeviceHotspotStartingHandler?,
        deviceHotspotConnectCompletionHandler: AIBudsMediaFileImportDeviceHotspotConnectCompletionHandler?,
        completionHandler: AIBudsMediaFileImportFetchMediaFilesInfoCompletionHandler?
    ) {
        mediaImport.fetchMediaFilesInfo(
            configureHotspotStartingHandler: configureHotspotStartingHandler,
            hotspotConfigureCompletionHandler: hotspotConfigureCompletionHandler,
            enterFileTransferModeStartingHandler: enterFileTransferModeStartingHandler,
            enterFileTransferModeCompletedHandler: enterFileTransferModeCompletedHandler,
            waitingForHotspotOpenHandler: waitingForHotspotOpenHandler,
            connectDeviceHotspotStartingHandler: connectDeviceHotspotStartingHandler,
            deviceHotspotConnectCompletionHandler: deviceHotspotConnectCompletionHandler,
            completionHandler: completionHandler)
    }

    /// Downloads the selected files, then optionally stabilizes videos with six-axis data.
    public func importMediaFiles(
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
    ) {
        mediaImport.importMediaFiles(
            mediaFiles, dataChunkHandler: dataChunkHandler, singleTransferStartingHandler: singleTransferStartingHandler,
            singleTransferCompletionHandler: singleTransferCompletionHandler, transferSpeedHandler: transferSpeedHandler,
            transferBatchProgressHandler: transferBatchProgressHandler,
            videoStabilizationPhaseBeginHandler: videoStabilizationPhaseBeginHandler,
            videoStabilizationSingleFileProgressHandler: videoStabilizationSingleFileProgressHandler,
            videoStabilizationSingleFileCompletionHandler: videoStabilizationSingleFileCompletionHandler,
            videoStabilizationBatchProgressHandler: videoStabilizationBatchProgressHandler,
            videoStabilizationPhaseFinishHandler: videoStabilizationPhaseFinishHandler,
            completionHandler: completionHandler)
    }

    /// Cancels the running transfer or post-processing.
    public func cancelMediaFileImport(_ completion: AIBudsStatusCodeCompletionHandler?) {
        mediaImport.cancelMediaFileImport(completion)
    }

    /// Deletes one device file by its device file name.
    public func deleteMediaFile(_ fileName: String, completion: AIBudsStatusCodeCompletionHandler?) {
        mediaImport.deleteMediaFile(fileName, completion: completion)
    }

    /// Deletes all device media files.
    public func deleteAllMediaFiles(_ completion: AIBudsStatusCodeCompletionHandler?) {
        mediaImport.deleteAllMediaFiles(completion)
    }
}

/// The engines of the devices that use one, held as long as their device lives.
///
/// A device class cannot add stored properties in an extension, so devices find their engine here.
public enum MediaImportEngines {
    private struct Entry: Sendable {
        weak var owner: (any MediaImportControlChannel)?
        let engine: MediaImportEngine
    }

    private static let table = Mutex<[ObjectIdentifier: Entry]>([:])
    private static let makeEngine = Mutex<@Sendable (any MediaImportControlChannel) -> MediaImportEngine>({
        MediaImportEngine(channel: $0)
    })

    /// The engine of `channel`, created on first use.
    public static func engine(for channel: any MediaImportControlChannel) -> MediaImportEngine {
        let key = ObjectIdentifier(channel)
        if let engine = table.withLock({ table in table[key].flatMap { $0.owner === channel ? $0.engine : nil } }) {
            return engine
        }
        let made = makeEngine.withLock { $0 }(channel)
        return table.withLock { table in
            if let entry = table[key], entry.owner === channel { return entry.engine }
            table = table.filter { $0.value.owner != nil }
            table[key] = Entry(owner: channel, engine: made)
            return made
        }
    }

    /// Sets how engines are made for devices from now on (a logger, a configuration, a joiner);
    /// devices that already have one keep it.
    public static func setFactory(_ factory: @escaping @Sendable (any MediaImportControlChannel) -> MediaImportEngine) {
        makeEngine.withLock { $0 = factory }
    }
}
