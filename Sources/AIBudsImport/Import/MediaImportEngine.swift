import AIBudsFoundation
import AIBudsTransfer
import AIBudsLog
import AIBudsSync
import Foundation

/// The media import engine of one device: fetch the media list over the device hotspot, import
/// files (fast, resumable, verified), stabilize videos, cancel, delete.
///
/// Its async API is the source of truth: ``fetchEvents(type:)`` and ``importEvents(_:options:)``
/// are sequences of typed events, and cancelling the task that consumes one (or dropping it)
/// cancels the operation. The completion-handler API of ``/AIBuds/DeviceMediaFileImportAPI`` is a thin
/// layer on top (`MediaImportEngine+Callbacks.swift`). One operation runs at a time (6002);
/// imports need a fetch first (6001); models from a list taken before a deletion are stale (6102).
public final class MediaImportEngine: Sendable {
    /// How the engine prepares the hotspot and imports by default.
    public struct Configuration: Sendable {
        /// The hotspot mode configured on the device.
        public var hotspotMode: HotspotMode
        /// The Wi-Fi channel configured on the device.
        public var hotspotChannel: Int
        /// The SSID prefix; four random hex digits follow.
        public var ssidPrefix: String
        /// How long to wait for the device to report its hotspot open.
        public var hotspotOpenTimeout: Duration
        /// How often to ask the device for its hotspot state while waiting.
        public var hotspotPollInterval: Duration
        /// The options of imports started through the completion-handler API.
        public var importOptions: MediaImportOptions
        /// The download engine's tuning.
        public var downloader: HTTPFileDownloader.Configuration

        /// Creates the settings of a media import engine; the defaults open an access point on
        /// channel 6 and wait up to 30 s for it.
        public init(
            hotspotMode: HotspotMode = .ap, hotspotChannel: Int = 6, ssidPrefix: String = "AIBuds-",
            hotspotOpenTimeout: Duration = .seconds(30), hotspotPollInterval: Duration = .milliseconds(50),
            importOptions: MediaImportOptions = MediaImportOptions(),
            downloader: HTTPFileDownloader.Configuration = HTTPFileDownloader.Configuration()
        ) {
            self.hotspotMode = hotspotMode
            self.hotspotChannel = hotspotChannel
            self.ssidPrefix = ssidPrefix
            self.hotspotOpenTimeout = hotspotOpenTimeout
            self.hotspotPollInterval = hotspotPollInterval
            self.importOptions = importOptions
            self.downloader = downloader
        }
    }

    private struct Shared {
        var machine = MediaImportStateMachine()
        var running: [Int: Task<Void, Never>] = [:]
        /// The operation whose transfer phase runs: the device is serving its files.
        var transferring: Int?
    }

    /// The engine's configuration.
    public let configuration: Configuration
    /// The joiner that connects the host to the device hotspot.
    public let joiner: any HotspotJoiner
    /// Where the stabilization plugin is registered.
    public let stabilization: VideoStabilizationRegistry
    private let logger: any LogService
    private let downloader: HTTPFileDownloader
    private weak let channelReference: (any MediaImportControlChannel)?
    private let shared = Locked(Shared())

    /// Creates the engine of `channel` (held weakly: the device owns its engine, not the reverse).
    public init(
        channel: any MediaImportControlChannel, joiner: (any HotspotJoiner)? = nil,
        stabilization: VideoStabilizationRegistry = .shared, configuration: Configuration = Configuration(),
        logger: any LogService = NullLogService()
    ) {
        self.channelReference = channel
        self.joiner = joiner ?? AutomaticHotspotJoiner(logger: logger)
        self.stabilization = stabilization
        self.configuration = configuration
        self.logger = logger
        self.downloader = HTTPFileDownloader(configuration: configuration.downloader, logger: logger)
    }

    /// `true` only when a stabilization plugin is registered and stabilization is not disabled.
    public var isVideoStabilizationAvailable: Bool { stabilization.isAvailable }

    /// Whether a fetch or an import is running.
    public var isBusy: Bool { shared.withLock { $0.machine.state != .idle } }

    private func channel() throws -> any MediaImportControlChannel {
        guard let channel = channelReference else {
            throw AIBudsError(.deviceNotConnected, "the device of this import engine no longer exists")
        }
        return channel
    }

    // MARK: Fetch

    /// Prepares the transfer session and lists the device's media, as a sequence of events ending
    /// with ``MediaFetchEvent/listed(_:)``; a failing step throws its `AIBudsError`.
    public func fetchEvents(type: MediaFileType? = nil) -> AsyncThrowingStream<MediaFetchEvent, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: MediaFetchEvent.self)
        let started: Result<Int, AIBudsError> = shared.withLock { shared in
            switch shared.machine.startFetch() {
            case .reject(let error):
                return .failure(error)
            case .start(let id):
                shared.running[id] = Task { await self.runFetch(id: id, type: type, continuation: continuation) }
                return .success(id)
            }
        }
        switch started {
        case .failure(let error): continuation.finish(throwing: error)
        case .success(let id): continuation.onTermination = { [weak self] in if case .cancelled = $0 { self?.cancelOperation(id) } }
        }
        return stream
    }

    /// Prepares the transfer session and returns the device's media models.
    public func fetchMediaFiles(type: MediaFileType? = nil) async throws -> [MediaFileInfoModel] {
        for try await event in fetchEvents(type: type) {
            if case .listed(let models) = event { return models }
        }
        throw AIBudsError(.fileImportFailed, "the fetch ended without a media list")
    }

    private func runFetch(id: Int, type: MediaFileType?, continuation: AsyncThrowingStream<MediaFetchEvent, any Error>.Continuation) async {
        do {
            let run = MediaFetchRun(channel: try channel(), joiner: joiner, configuration: configuration, logger: logger)
            let (session, models) = try await run.run(type: type) { continuation.yield($0) }
            try Task.checkCancellation()
            end(id) { $0.fetchEnded(id: id, session: session) }
            continuation.yield(.listed(models))
            continuation.finish()
        } catch {
            end(id) { $0.fetchEnded(id: id, session: nil) }
            if Task.isCancelled || error is CancellationError {
                continuation.finish(throwing: AIBudsError(.operationCanceled, "fetching the media list was cancelled"))
            } else {
                continuation.finish(throwing: AIBudsError.from(error))
            }
        }
    }

    // MARK: Import

    /// Imports `files` (models from the last fetch), as a sequence of events ending with
    /// ``MediaImportEvent/completed(_:)``; `options` default to `configuration.importOptions`.
    public func importEvents(_ files: [MediaFileInfoModel], options: MediaImportOptions? = nil) -> AsyncStream<MediaImportEvent> {
        let (stream, continuation) = AsyncStream.makeStream(of: MediaImportEvent.self)
        let options = options ?? configuration.importOptions
        let started: Result<Int, AIBudsError> = shared.withLock { shared in
            switch shared.machine.startImport(files) {
            case .reject(let error):
                return .failure(error)
            case .start(let id, let unique, let session):
                shared.running[id] = Task {
                    await self.runImport(id: id, files: unique, session: session, options: options, continuation: continuation)
                }
                return .success(id)
            }
        }
        switch started {
        case .failure(let error):
            logger.log(.warning, "import", "import refused: \(error.message)")
            continuation.yield(.completed(.rejected(error)))
            continuation.finish()
        case .success(let id):
            continuation.onTermination = { [weak self] in if case .cancelled = $0 { self?.cancelOperation(id) } }
        }
        return stream
    }

    /// Imports `files` and returns how it ended.
    public func importMediaFiles(_ files: [MediaFileInfoModel], options: MediaImportOptions? = nil) async -> MediaImportResult {
        for await event in importEvents(files, options: options) {
            if case .completed(let result) = event { return result }
        }
        return .rejected(AIBudsError(.fileImportFailed, "the import ended without a result"))
    }

    private func runImport(
        id: Int, files: [MediaFileInfoModel], session: TransferSession, options: MediaImportOptions,
        continuation: AsyncStream<MediaImportEvent>.Continuation
    ) async {
        let result: MediaImportResult
        var hotspotLost = false
        // A device shows `busy` while it imports.
        let device = channelReference
        device?.beginBusy()
        do {
            let channel = try channel()
            let destination = options.destination ?? Self.defaultDestination(deviceID: channel.mediaImportDeviceID)
            logger.log(.info, "import", "importing \(files.count) files into \(destination.path)")
            let run = MediaImportRun(
                transfer: TransferPhase(
                    operationID: id, files: files, session: session, options: options, destination: destination,
                    channel: channel, downloader: downloader, stabilization: stabilization, logger: logger),
                deleteFromDevice: { [weak self] name in
                    guard let self else { return }
                    try await self.deleteMediaFile(named: name)
                },
                transferPhase: { [weak self] running in
                    self?.shared.withLock { $0.transferring = running ? id : nil }
                })
            if options.reportsProgress {
                // Events come from several threads, thousands a second: they reach the consumer in bursts.
                let events = EventBatcher<MediaImportEvent> { continuation.yield($0) }
                (result, hotspotLost) = await run.run { events.send($0) }
                events.close()
            } else {
                (result, hotspotLost) = await run.run { _ in }
            }
        } catch {
            result = .rejected(AIBudsError.from(error))
        }
        logger.log(.info, "import", "import ended: \(result.importedFiles.count) of \(files.count) files; \(result.error.map { "\($0)" } ?? "success")")
        device?.endBusy()
        end(id) { $0.importEnded(id: id, hotspotLost: hotspotLost) }
        continuation.yield(.completed(result))
        continuation.finish()
    }

    /// The default import folder of a device: `<temporary directory>/AIBudsImport/<device id>`.
    public static func defaultDestination(deviceID: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("AIBudsImport", isDirectory: true)
            .appendingPathComponent(ImportLedger.safeComponent(deviceID), isDirectory: true)
    }

    // MARK: Cancel

    /// Cancels the running fetch or import (transfer or post-processing) and returns once it has
    /// ended; its partial downloads stay for a resume. Throws 6003 when nothing runs.
    ///
    /// Returns the device's status code when the device took part: during the transfer phase the
    /// device is asked to end the transfers it serves (Hotspot `cancel transfer`), 0 when it did,
    /// its non-zero code when it refused; nil when it was not asked (a fetch, stabilization) or did
    /// not answer. The import is cancelled either way.
    @discardableResult
    public func cancel() async throws -> Int? {
        let (task, transferring): (Task<Void, Never>?, Bool) = try shared.withLock { shared in
            switch shared.machine.cancel() {
            case .rejectNothingRunning:
                throw AIBudsError(.fileImportNotInProgress, "no media import is running on this device")
            case .cancel(let id):
                return (shared.running[id], shared.transferring == id)
            }
        }
        logger.log(.info, "import", "cancelling the running media operation")
        task?.cancel()
        let status = transferring ? await stopDeviceTransfers() : nil
        await task?.value
        return status
    }

    /// Asks the device to end the transfers it serves; its status code (0, or the code it refused
    /// with), nil when it did not answer.
    private func stopDeviceTransfers() async -> Int? {
        do {
            try await channel().cancelFileTransfer()
            return 0
        } catch {
            let code = AIBudsError.from(error).deviceStatusCode
            logger.log(.warning, "import", "the device did not stop its transfers: \(error)")
            return code
        }
    }

    private func cancelOperation(_ id: Int) {
        let task = shared.withLock { $0.running[id] }
        task?.cancel()
    }

    private func end(_ id: Int, _ transition: (inout MediaImportStateMachine) -> Void) {
        shared.withLock { shared in
            transition(&shared.machine)
            shared.running[id] = nil
        }
    }

    // MARK: Delete and session

    /// Deletes one device file by its device name; models listed before are stale afterwards.
    /// Returns the device's list generation after the deletion.
    @discardableResult
    public func deleteMediaFile(named name: String) async throws -> UInt64 {
        guard !name.isEmpty else {
            throw AIBudsError(.operationFailedDueToWrongParameters, "the file name to delete is empty")
        }
        let generation = try await channel().deleteMediaFile(named: name, generation: nil)
        shared.withLock { $0.machine.deleted(newGeneration: generation) }
        logger.log(.info, "import", "deleted \(name) from the device (generation \(generation))")
        return generation
    }

    /// Deletes every media file on the device; returns how many were deleted.
    @discardableResult
    public func deleteAllMediaFiles() async throws -> Int {
        let (generation, deleted) = try await channel().deleteAllMediaFiles(type: nil)
        shared.withLock { $0.machine.deleted(newGeneration: generation) }
        logger.log(.info, "import", "deleted all \(deleted) media files from the device (generation \(generation))")
        return deleted
    }

    /// Leaves transfer mode (the device closes its hotspot and voids the token); the next import
    /// needs a new fetch.
    public func endTransferSession() async throws {
        shared.withLock { $0.machine.sessionEnded() }
        downloader.closeIdleConnections()
        try await channel().leaveFileTransferMode()
    }
}
