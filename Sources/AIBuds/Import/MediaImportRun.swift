import AIBudsDigest
import AIBudsFoundation
import AIBudsLog
import Foundation
import Synchronization

/// One run of `importMediaFiles`: the transfer phase (parallel, verified downloads), the optional
/// deletion of verified files, then the stabilization phase. It reports every step through `emit`
/// and always returns a result; cancellation (of its task) ends it with error 6100.
struct MediaImportRun: Sendable {
    let operationID: Int
    let files: [MediaFileInfoModel]
    let session: TransferSession
    let options: MediaImportOptions
    let destination: URL
    let deviceID: String
    let channel: any MediaImportControlChannel
    let downloader: HTTPFileDownloader
    let stabilization: VideoStabilizationRegistry
    let logger: any LogService
    /// Deletes one device file through the engine (so that the engine learns the new generation).
    let deleteFromDevice: @Sendable (String) async throws -> Void

    /// What became of one requested file in the transfer phase.
    private enum Outcome: Sendable {
        case imported(ImportedMediaFileModel, verified: Bool, bytesFetched: UInt64, sixAxisData: URL?)
        case failed(AIBudsError, bytesFetched: UInt64)
        case notStarted
    }

    /// Runs the import; `emit` must be thread-safe (events of different files interleave).
    func run(emit: @escaping @Sendable (MediaImportEvent) -> Void) async -> (MediaImportResult, hotspotLost: Bool) {
        do {
            try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
        } catch {
            let failure = AIBudsError(
                .importFilesFailedDueToLocalFileError, "cannot create the import folder \(destination.path)", underlying: error)
            return (MediaImportResult(importedFiles: [], failures: files.map { MediaImportFailure(mediaFile: $0, error: failure) }, error: failure), false)
        }
        let outcomes = await transferPhase(emit: emit)

        var imported: [ImportedMediaFileModel] = []
        var verifiedNames: [String] = []
        var failures: [MediaImportFailure] = []
        var bytesFetched: [String: UInt64] = [:]
        var sixAxisData: [String: URL] = [:]
        var hotspotLost = false
        for (file, outcome) in zip(files, outcomes) {
            switch outcome {
            case .imported(let model, let verified, let bytes, let sidecar):
                imported.append(model)
                if let sidecar { sixAxisData[file.fileName] = sidecar }
                if verified { verifiedNames.append(file.fileName) }
                bytesFetched[file.fileName] = bytes
            case .failed(let error, let bytes):
                failures.append(MediaImportFailure(mediaFile: file, error: error))
                bytesFetched[file.fileName] = bytes
                if error.code == .importFilesFailedDueToDeviceHotspotConnectionLost { hotspotLost = true }
            case .notStarted:
                break
            }
        }

        if options.deletesVerifiedFilesFromDevice, !Task.isCancelled {
            for name in verifiedNames {
                do {
                    try await deleteFromDevice(name)
                } catch {
                    logger.log(.warning, "import", "could not delete \(name) from the device after importing it: \(error)")
                }
            }
        }

        if !Task.isCancelled {
            imported = await StabilizationPhase(stabilization: stabilization, logger: logger)
                .run(imported, sixAxisData: sixAxisData, emit: emit)
        } else {
            imported = imported.map(StabilizationPhase.settled(stabilization))
        }

        let error: AIBudsError?
        if Task.isCancelled {
            error = AIBudsError(
                .importFilesCanceled,
                "the import was cancelled after \(imported.count) of \(files.count) files; partial downloads are kept for a resume")
        } else if let first = failures.first {
            error = AIBudsError(
                first.error.code,
                "\(failures.count) of \(files.count) files were not imported; first '\(first.mediaFile.fileName)': \(first.error.message)",
                underlying: first.error, deviceStatusCode: first.error.deviceStatusCode)
        } else {
            error = nil
        }
        return (MediaImportResult(importedFiles: imported, failures: failures, error: error, bytesFetched: bytesFetched), hotspotLost)
    }

    // MARK: Transfer phase

    private func transferPhase(emit: @escaping @Sendable (MediaImportEvent) -> Void) async -> [Outcome] {
        let localNames = SafeFileName.assign(files.map(\.fileName))
        let fetched = ByteCount()
        var outcomes: [Outcome] = []
        await withTaskGroup(of: Void.self) { phase in
            // The speed ticker runs beside the transfers and stops with them.
            phase.addTask {
                var meter = TransferSpeedMeter()
                let clock = ContinuousClock()
                _ = meter.sample(totalBytes: 0, at: clock.now)
                while true {
                    do { try await Task.sleep(for: options.speedReportInterval) } catch { return }
                    if let speed = meter.sample(totalBytes: fetched.value, at: clock.now) {
                        emit(.speed(bytesPerSecond: speed))
                    }
                }
            }
            outcomes = await transfers(localNames: localNames, fetched: fetched, emit: emit)
            phase.cancelAll()
        }
        return outcomes
    }

    private func transfers(
        localNames: [Result<String, TransferError>], fetched: ByteCount, emit: @escaping @Sendable (MediaImportEvent) -> Void
    ) async -> [Outcome] {
        let total = files.count
        var outcomes = [Outcome](repeating: .notStarted, count: total)
        let abortReason = AbortReason()
        await withTaskGroup(of: (Int, Outcome).self) { group in
            var next = 0
            func startNext() {
                let index = next
                next += 1
                group.addTask {
                    let outcome = await transfer(index: index, localName: localNames[index], total: total, emit: emit) {
                        fetched.add($0)
                    }
                    if case .failed(let error, _) = outcome, Self.endsBatch(error) {
                        abortReason.set(error)
                    }
                    return (index, outcome)
                }
            }
            for _ in 0..<min(max(1, options.maximumConcurrentTransfers), total) { startNext() }
            while let (index, outcome) = await group.next() {
                outcomes[index] = outcome
                if next < total, !Task.isCancelled, abortReason.value == nil { startNext() }
            }
        }
        // Files never started because the hotspot connection was lost fail with that reason.
        if let reason = abortReason.value, !Task.isCancelled {
            for index in outcomes.indices {
                guard case .notStarted = outcomes[index] else { continue }
                outcomes[index] = .failed(
                    AIBudsError(reason.code, "not started: \(reason.message)", underlying: reason), bytesFetched: 0)
            }
        }
        return outcomes
    }

    /// Whether a file's failure means the remaining files cannot succeed either.
    private static func endsBatch(_ error: AIBudsError) -> Bool {
        error.code == .importFilesFailedDueToDeviceHotspotConnectionLost
    }

    /// Downloads, verifies and records one file.
    private func transfer(
        index: Int, localName: Result<String, TransferError>, total: Int,
        emit: @escaping @Sendable (MediaImportEvent) -> Void, counted: @escaping @Sendable (UInt64) -> Void
    ) async -> Outcome {
        let file = files[index]
        let taskID = "import-\(operationID)-\(index)"
        emit(.batchProgress(index: index, total: total))
        emit(.fileStarted(file, taskID: taskID))
        let fallbackURL = destination.appendingPathComponent((try? localName.get()) ?? "file-\(index)")
        func fail(_ error: AIBudsError, at url: URL, bytes: UInt64 = 0, transferred: UInt64 = 0) -> Outcome {
            emit(.chunk(MediaImportChunk(taskID: taskID, mediaFile: file, data: nil, count: 0, fileSize: file.fileSize ?? 0, transferredSize: transferred, error: error)))
            let model = ImportedMediaFileModel(metadata: file, localFileURL: url, stabilizationStatus: .pending, error: error.nsError)
            emit(.fileFinished(model, taskID: taskID, error: error))
            return .failed(error, bytesFetched: bytes)
        }
        if Task.isCancelled { return fail(Self.cancelled(file), at: fallbackURL) }

        let name: String
        switch localName {
        case .success(let safe): name = safe
        case .failure(let error): return fail(ImportErrorMapping.error(for: error, file: file), at: fallbackURL)
        }

        var expected: [UInt8]?
        if options.verifiesDeviceHash {
            do {
                expected = try await channel.mediaFileSHA256(named: file.fileName)
            } catch {
                if Task.isCancelled { return fail(Self.cancelled(file), at: fallbackURL) }
                return fail(ImportErrorMapping.hashRequestError(error, file: file), at: fallbackURL)
            }
        }

        let target: LocalTarget
        do {
            target = try LocalTarget.choose(in: destination, name: name, size: file.fileSize, sha256: expected)
        } catch {
            return fail(AIBudsError(.importFilesFailedDueToLocalFileError, "cannot check \(destination.path)/\(name)", underlying: error), at: fallbackURL)
        }
        if case .alreadyPresent(let url, let digest) = target {
            // A previous import left exactly this file here: nothing to download.
            logger.log(.info, "import", "\(file.fileName) is already at \(url.path) with the device's SHA-256")
            let sidecar = await sixAxisData(for: file)
            return finish(file, taskID: taskID, url: url, sha256: digest, verified: expected != nil, bytes: 0, sixAxisData: sidecar, emit: emit)
        }
        var request = DownloadRequest(
            baseURL: session.baseURL, deviceName: file.fileName, token: session.token, destinationDirectory: destination,
            localName: target.localName, expectedSize: file.fileSize.map { Int64(clamping: $0) }, expectedSHA256: expected)
        request.reportsChunkData = options.deliversChunkData
        let fetchedBytes = ByteCount()
        let lastTransferred = ByteCount()
        do {
            let result = try await downloader.download(request) { progress in
                let count = UInt64(max(0, progress.chunkBytes))
                let transferred = UInt64(max(0, progress.bytesTransferred))
                fetchedBytes.add(count)
                lastTransferred.set(transferred)
                counted(count)
                let size = progress.totalBytes.map { UInt64(max(0, $0)) } ?? file.fileSize ?? 0
                emit(.chunk(MediaImportChunk(
                    taskID: taskID, mediaFile: file, data: progress.chunk, count: Int(count), fileSize: size,
                    transferredSize: transferred)))
            }
            let sidecar = await sixAxisData(for: file)
            return finish(file, taskID: taskID, url: result.fileURL, sha256: result.sha256, verified: expected != nil,
                          bytes: UInt64(max(0, result.bytesReceived)), sixAxisData: sidecar, emit: emit)
        } catch {
            let mapped = Task.isCancelled ? Self.cancelled(file) : ImportErrorMapping.error(for: error, file: file)
            return fail(mapped, at: request.finalURL, bytes: fetchedBytes.value,
                        transferred: lastTransferred.value)
        }
    }

    /// Records a verified file and reports it.
    private func finish(
        _ file: MediaFileInfoModel, taskID: String, url: URL, sha256: [UInt8], verified: Bool, bytes: UInt64,
        sixAxisData: URL?, emit: @Sendable (MediaImportEvent) -> Void
    ) -> Outcome {
        if let ledger = options.ledger {
            let entry = ImportLedgerEntry(
                deviceID: ledger.deviceID, name: file.fileName, size: file.fileSize ?? 0, sha256: sha256.hexString, localPath: url.path)
            do {
                try ledger.record(entry)
            } catch {
                logger.log(.warning, "import", "could not record \(file.fileName) in the import ledger: \(error)")
            }
        }
        let model = ImportedMediaFileModel(metadata: file, localFileURL: url, stabilizationStatus: .pending)
        emit(.fileFinished(model, taskID: taskID, error: nil))
        return .imported(model, verified: verified, bytesFetched: bytes, sixAxisData: sixAxisData)
    }

    /// Downloads the six-axis samples of `file` (the device serves them as `<name>.gcsv`) when the
    /// stabilization phase will process it; `nil` otherwise or when they cannot be had (the
    /// stabilization of that file then fails, the import does not).
    private func sixAxisData(for file: MediaFileInfoModel) async -> URL? {
        guard case .run = stabilization.decision(for: file), !Task.isCancelled else { return nil }
        let name = file.fileName + "." + Self.sixAxisExtension
        do {
            let folder = destination.appendingPathComponent(".aibuds/sixaxis", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let expected = options.verifiesDeviceHash ? try? await channel.mediaFileSHA256(named: name) : nil
            let request = DownloadRequest(
                baseURL: session.baseURL, deviceName: name, token: session.token, destinationDirectory: folder,
                localName: try SafeFileName.make(from: name), expectedSHA256: expected, overwrite: true)
            return try await downloader.download(request).fileURL
        } catch {
            logger.log(.warning, "import", "the six-axis data of \(file.fileName) could not be downloaded: \(error)")
            return nil
        }
    }

    /// The extension under which a device serves a video's six-axis samples (Gyroflow's CSV).
    static let sixAxisExtension = "gcsv"

    private static func cancelled(_ file: MediaFileInfoModel) -> AIBudsError {
        AIBudsError(.importFilesCanceled, "the import of '\(file.fileName)' was cancelled; its partial download is kept for a resume")
    }
}

/// A byte count shared by the threads of a transfer.
final class ByteCount: Sendable {
    private let storage = Atomic<UInt64>(0)
    /// The current count.
    var value: UInt64 { storage.load(ordering: .relaxed) }
    /// Adds `bytes`.
    func add(_ bytes: UInt64) { storage.add(bytes, ordering: .relaxed) }
    /// Replaces the count.
    func set(_ bytes: UInt64) { storage.store(bytes, ordering: .relaxed) }
}

/// The first failure that ends a batch early (a lost hotspot connection).
private final class AbortReason: Sendable {
    private let storage = Mutex<AIBudsError?>(nil)
    /// The reason, once set.
    var value: AIBudsError? { storage.withLock { $0 } }
    /// Keeps `error` unless a reason is already set.
    func set(_ error: AIBudsError) { storage.withLock { $0 = $0 ?? error } }
}
