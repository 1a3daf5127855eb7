import AIBuds
import AIBudsFoundation
import Foundation

/// Anything whose media import a ``MediaImportEngine`` runs: the engine itself, and every
/// ``MediaImportControlChannel`` device (through the engine it owns, its ``mediaImport``). It gets
/// the completion-handler API of ``/AIBuds/DeviceMediaFileImportAPI`` from this one implementation, so a
/// device adopting both protocols needs no code of its own beyond its engine.
public protocol MediaImportEngineProvider: Sendable {
    /// The engine that runs this provider's fetches, imports and deletions.
    var mediaImport: MediaImportEngine { get }
}

extension MediaImportEngine: MediaImportEngineProvider {
    /// The engine itself.
    public var mediaImport: MediaImportEngine { self }
}

/// The completion-handler API of ``/AIBuds/DeviceMediaFileImportAPI``, as the vendor publishes it, a thin
/// layer over the engine's async API.
///
/// Every handler is called on `AIBudsCall.callbackQueue`, in the order the events happened, and
/// each completion handler exactly once.
extension MediaImportEngineProvider {
    /// `true` only when a stabilization plugin is registered and stabilization is not disabled.
    public var isVideoStabilizationAvailable: Bool { mediaImport.isVideoStabilizationAvailable }

    /// Fetches the media list; see ``/AIBuds/DeviceMediaFileImportAPI``.
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
        let events = mediaImport.fetchEvents()
        let completion = OneShot<Void>()
        func complete(_ success: Bool, _ models: [MediaFileInfoModel], _ error: NSError?) {
            guard completion.succeed(()) else { return }
            AIBudsCall.deliver { completionHandler?(success, models, error) }
        }
        Task {
            var openStep: MediaFetchStep?
            do {
                for try await event in events {
                    openStep = event.beginsStep
                    switch event {
                    case .configuringHotspot:
                        AIBudsCall.deliver { configureHotspotStartingHandler?() }
                    case .hotspotConfigured:
                        AIBudsCall.deliver { hotspotConfigureCompletionHandler?(true, nil) }
                    case .enteringTransferMode:
                        AIBudsCall.deliver { enterFileTransferModeStartingHandler?() }
                    case .transferModeEntered:
                        AIBudsCall.deliver { enterFileTransferModeCompletedHandler?(true, nil) }
                    case .waitingForHotspot:
                        AIBudsCall.deliver { waitingForHotspotOpenHandler?() }
                    case .joiningHotspot(let ssid):
                        AIBudsCall.deliver { connectDeviceHotspotStartingHandler?(ssid) }
                    case .hotspotJoined:
                        AIBudsCall.deliver { deviceHotspotConnectCompletionHandler?(true, nil) }
                    case .listed(let models):
                        complete(true, models, nil)
                    }
                }
                complete(false, [], AIBudsError(.fileImportFailed, "the fetch ended without a media list").nsError)
            } catch {
                let failure = AIBudsError.nsError(from: error)
                // The step that was running reports the failure, then the completion does.
                switch openStep {
                case .configureHotspot?:
                    AIBudsCall.deliver { hotspotConfigureCompletionHandler?(false, failure) }
                case .enterTransferMode?:
                    AIBudsCall.deliver { enterFileTransferModeCompletedHandler?(false, failure) }
                case .waitForHotspot?, .joinHotspot?:
                    AIBudsCall.deliver { deviceHotspotConnectCompletionHandler?(false, failure) }
                case .listMedia?, nil:
                    break
                }
                complete(false, [], failure)
            }
        }
    }

    /// Imports files; see ``/AIBuds/DeviceMediaFileImportAPI``. Uses `configuration.importOptions`, with
    /// chunk bytes delivered when `dataChunkHandler` is given.
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
        var options = mediaImport.configuration.importOptions
        options.deliversChunkData = dataChunkHandler != nil
        let events = mediaImport.importEvents(mediaFiles, options: options)
        Task {
            var completed = false
            for await event in events {
                switch event {
                case .batchProgress(let index, let total):
                    if let handler = transferBatchProgressHandler { AIBudsCall.deliver { handler(index, total) } }
                case .fileStarted(let file, _):
                    if let handler = singleTransferStartingHandler { AIBudsCall.deliver { handler(file) } }
                case .chunk(let chunk):
                    if let handler = dataChunkHandler {
                        let url = chunk.mediaFile.fileUrl
                        let error = chunk.error?.nsError
                        AIBudsCall.deliver { handler(chunk.data, chunk.taskID, url, chunk.fileSize, chunk.transferredSize, error) }
                    }
                case .fileFinished(let model, _, let error):
                    if let handler = singleTransferCompletionHandler {
                        let failure = error?.nsError
                        AIBudsCall.deliver { handler(failure == nil, model, failure) }
                    }
                case .speed(let bytesPerSecond):
                    if let handler = transferSpeedHandler { AIBudsCall.deliver { handler(bytesPerSecond) } }
                case .stabilizationBegan:
                    if let handler = videoStabilizationPhaseBeginHandler { AIBudsCall.deliver { handler() } }
                case .stabilizationBatchProgress(let index, let total):
                    if let handler = videoStabilizationBatchProgressHandler { AIBudsCall.deliver { handler(index, total) } }
                case .stabilizationProgress(let file, let progress):
                    if let handler = videoStabilizationSingleFileProgressHandler { AIBudsCall.deliver { handler(file, progress) } }
                case .stabilizationFileFinished(let file, let success):
                    if let handler = videoStabilizationSingleFileCompletionHandler { AIBudsCall.deliver { handler(file, success) } }
                case .stabilizationFinished:
                    if let handler = videoStabilizationPhaseFinishHandler { AIBudsCall.deliver { handler() } }
                case .completed(let result):
                    guard !completed else { break }
                    completed = true
                    let error = result.error?.nsError
                    AIBudsCall.deliver { completionHandler?(result.success, result.importedFiles, error) }
                }
            }
            if !completed {
                let error = AIBudsError(.fileImportFailed, "the import ended without a result").nsError
                AIBudsCall.deliver { completionHandler?(false, [], error) }
            }
        }
    }

    /// Cancels the running transfer or post-processing; 6003 when nothing runs. The completion
    /// gets `success` true and the device's status code when the device took part (0: it ended the
    /// transfers it served; non-zero: it refused, the import is cancelled all the same), `nil` when
    /// it was not asked (cancelled while fetching or stabilizing) or did not answer.
    public func cancelMediaFileImport(_ completion: AIBudsStatusCodeCompletionHandler?) {
        let engine = mediaImport
        AIBudsCall.run(completion) {
            try await engine.cancel().map { NSNumber(value: $0) }
        }
    }

    /// Deletes one device file by name. The completion gets the device's status code: 0 with
    /// `success` when the device deleted it; when the device refused (rc 2 no such file, 5 busy,
    /// ...), `success` false, that code and the error (whose `userInfo` carries it too); `nil` when
    /// the device never answered.
    public func deleteMediaFile(_ fileName: String, completion: AIBudsStatusCodeCompletionHandler?) {
        let engine = mediaImport
        AIBudsCall.run(completion) {
            try await engine.deleteMediaFile(named: fileName)
            return NSNumber(value: 0)
        }
    }

    /// Deletes every device media file; the completion gets the device's status code as
    /// ``deleteMediaFile(_:completion:)``'s does.
    public func deleteAllMediaFiles(_ completion: AIBudsStatusCodeCompletionHandler?) {
        let engine = mediaImport
        AIBudsCall.run(completion) {
            try await engine.deleteAllMediaFiles()
            return NSNumber(value: 0)
        }
    }
}
