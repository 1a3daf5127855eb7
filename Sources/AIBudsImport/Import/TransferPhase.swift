import AIBudsDigest
import AIBudsFoundation
import AIBudsLog
import AIBudsSync
import AIBudsTransfer
import AIBudsWire
import Foundation

/// What became of one requested file in the transfer phase.
enum TransferOutcome: Sendable {
    /// Downloaded (or found already present), verified when `verified`, recorded.
    case imported(ImportedMediaFileModel, verified: Bool, bytesFetched: UInt64, sixAxisData: URL?)
    /// Not imported, with why.
    case failed(AIBudsError, bytesFetched: UInt64)
    /// Never started (the import was cancelled first).
    case notStarted
}

/// The transfer phase of an import: every file through one batch of the download engine,
/// `maximumConcurrentTransfers` at a time, each prepared when a worker takes it (the device's
/// SHA-256, from the media list or else fetched ahead; a free local name, or the identical file
/// already there) and reported as soon as it is committed. Finished files share their directory sync; the engine's threads
/// and buffers serve the whole batch.
struct TransferPhase: Sendable {
    let operationID: Int
    let files: [MediaFileInfoModel]
    let session: TransferSession
    let options: MediaImportOptions
    let destination: URL
    let channel: any MediaImportControlChannel
    let downloader: HTTPFileDownloader
    let stabilization: VideoStabilizationRegistry
    let logger: any LogService
    /// The ledger's first failed write in this phase, if any.
    let ledgerFailure = LedgerFailure()

    /// Runs the phase; returns one outcome per file, in order.
    func run(emit: @escaping @Sendable (MediaImportEvent) -> Void) async -> [TransferOutcome] {
        let fetched = ByteCount()
        let state = BatchState(count: files.count)
        var outcomes: [TransferOutcome] = []
        await withTaskGroup(of: Void.self) { phase in
            guard options.reportsProgress else {
                outcomes = await transfers(state: state, fetched: fetched, emit: emit)
                return
            }
            // Bytes held back by the merging of chunk events go out when no more come (a stall).
            phase.addTask {
                while true {
                    do { try await Task.sleep(for: BatchState.chunkEventInterval) } catch { return }
                    state.reportHeldChunks { index, count, transferred, size in
                        emit(.chunk(MediaImportChunk(
                            taskID: taskID(index), mediaFile: files[index], data: nil, count: Int(count), fileSize: size,
                            transferredSize: transferred)))
                    }
                }
            }
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
            outcomes = await transfers(state: state, fetched: fetched, emit: emit)
            phase.cancelAll()
        }
        return await withSixAxisData(outcomes)
    }

    // MARK: The batch

    private func transfers(
        state: BatchState, fetched: ByteCount, emit: @escaping @Sendable (MediaImportEvent) -> Void
    ) async -> [TransferOutcome] {
        let ledger = options.ledger.map { LedgerWriter(ledger: $0, logger: logger, failure: ledgerFailure) }
        let localNames = SafeFileName.assign(files.map(\.fileName))
        let reservations = LocalNameReservations(names: localNames.map { try? $0.get() })
        // The device's digests: listed with the files (models of this session's list), else asked
        // for a few files ahead of the downloads.
        let listed: [[UInt8]?] = files.map { file in
            guard options.verifiesDeviceHash, file.generation == session.listGeneration else { return nil }
            return session.listedSHA256[MediaFileName(file.fileName)]
        }
        let unlisted: [String?] = zip(files, listed).map { file, digest in digest == nil ? file.fileName : nil }
        let hashes = options.verifiesDeviceHash && unlisted.contains { $0 != nil }
            ? HashPrefetcher(names: unlisted, lookahead: max(8, 2 * options.maximumConcurrentTransfers)) { [channel] in
                try await channel.mediaFileSHA256(named: $0)
            }
            : nil
        // The data plane's address and token are parsed and checked once for the whole import; with
        // a URL or token the engine cannot use, each file is still prepared and then fails (6014).
        let endpoint = DataPlaneEndpoint.failingEachRequest(baseURL: session.baseURL, token: session.token)
        // One request made in full; the others are copies of it (the destination's path is worked
        // out once, not once per file).
        var template = DownloadRequest(endpoint: endpoint, deviceFileName: "", destinationDirectory: destination, localName: "")
        template.reportsChunkData = options.deliversChunkData
        var requests: [DownloadRequest] = []
        requests.reserveCapacity(files.count)
        for (index, file) in files.enumerated() {
            var request = template
            request.deviceFileName = file.fileName
            request.localName = (try? localNames[index].get()) ?? "file-\(index)"
            request.expectedSize = file.fileSize.map { Int64(clamping: $0) }
            requests.append(request)
        }
        let folder = template.destinationPath
        let hooks = DownloadBatchHooks(
            prepare: { index, request in
                prepare(
                    index, request, localName: localNames[index], listed: listed[index], hashes: hashes, folder: folder,
                    reservations: reservations, ledger: ledger, state: state, emit: emit)
            },
            finished: { index, result in
                finished(index, result, ledger: ledger, state: state, emit: emit)
            })
        await withTaskCancellationHandler {
            _ = await downloader.download(
                requests, parallelism: max(1, options.maximumConcurrentTransfers), hooks: hooks
            ) { index, progress in
                let file = files[index]
                let count = UInt64(max(0, progress.chunkBytes))
                let transferred = UInt64(max(0, progress.bytesTransferred))
                fetched.add(count)
                guard options.reportsProgress else {
                    state.count(index, count: count, transferred: transferred)
                    return
                }
                let size = progress.totalBytes.map { UInt64(max(0, $0)) } ?? file.fileSize ?? 0
                // Chunks with bytes all go out; otherwise a file's chunks are merged into one
                // event per `chunkEventInterval`, and its last chunk always goes out.
                state.progress(
                    index, count: count, transferred: transferred, size: size, reportNow: progress.chunk != nil || transferred >= size
                ) { reported in
                    emit(.chunk(MediaImportChunk(
                        taskID: taskID(index), mediaFile: file, data: progress.chunk, count: Int(reported), fileSize: size,
                        transferredSize: transferred)))
                }
            }
        } onCancel: {
            state.cancel()
            hashes?.cancel()
        }
        // A batch that stopped early (a lost hotspot) leaves no hash request running.
        hashes?.cancel()
        ledger?.flush()
        return state.outcomes()
    }

    /// Readies file `index` on the engine's worker thread: announces it, gets the device's
    /// SHA-256 (`listed`, or from `hashes`), picks the local name; `nil` when the file needs no
    /// download (settled here).
    private func prepare(
        _ index: Int, _ request: DownloadRequest, localName: Result<String, TransferError>, listed: [UInt8]?,
        hashes: HashPrefetcher?, folder: String, reservations: LocalNameReservations, ledger: LedgerWriter?, state: BatchState,
        emit: @escaping @Sendable (MediaImportEvent) -> Void
    ) -> DownloadRequest? {
        let starts = state.mayStart
        // Workers take files side by side: the batch position goes out in index order all the same.
        state.settleAnnouncement(index, started: starts && options.reportsProgress) { emit(.batchProgress(index: $0, total: files.count)) }
        guard starts else { return nil }
        let file = files[index]
        if options.reportsProgress {
            emit(.fileStarted(file, taskID: taskID(index)))
        }
        func fail(_ error: AIBudsError) -> DownloadRequest? {
            state.settle(index, failed(index, error, at: request.finalURL, state: state, emit: emit))
            return nil
        }
        let name: String
        switch localName {
        case .success(let safe): name = safe
        case .failure(let error): return fail(ImportErrorMapping.error(for: error, file: file))
        }
        var expected = listed
        if expected == nil, let hashes {
            switch hashes.wait(index) {
            case .success(let digest): expected = digest
            case .failure(let error):
                return fail(state.isCancelled ? Self.cancelled(file) : ImportErrorMapping.hashRequestError(error, file: file))
            }
        }
        if let streaming = options.streaming, let expected, !Self.needsLocalCopy(file, stabilization) {
            return streamed(index, request, expected: expected, into: streaming, ledger: ledger, state: state, emit: emit)
        }
        var target: LocalTarget
        do {
            // Another worker may take the same free name meanwhile: choose again until it is ours.
            repeat {
                target = try LocalTarget.choose(
                    in: destination, path: folder, name: name, size: file.fileSize, sha256: expected,
                    isAvailable: { reservations.isAvailable($0, for: index) })
            } while !reservations.take(target.localName, for: index)
        } catch {
            return fail(AIBudsError(.importFilesFailedDueToLocalFileError, "cannot check \(destination.path)/\(name)", underlying: error))
        }
        state.setVerified(index, expected != nil)
        if case .alreadyPresent(let url, let digest) = target {
            // A previous import left exactly this file here: nothing to download, and the state
            // of an interrupted download of it is debris.
            logger.log(.info, "import", "\(file.fileName) is already at \(url.path) with the device's SHA-256")
            HTTPFileDownloader.removePartialState(of: target.localName, in: destination)
            state.settle(index, imported(
                index, url: url, path: url.path, sha256: digest, verified: expected != nil, bytes: 0, ledger: ledger, emit: emit))
            return nil
        }
        var prepared = request
        prepared.localName = target.localName
        prepared.expectedSHA256 = expected
        // `LocalTarget` just found the name free: the engine need not look again.
        prepared.finalNameCheckedFree = true
        return prepared
    }

    /// Whether the file must be on local disk after its download: the stabilization phase reads it.
    private static func needsLocalCopy(_ file: MediaFileInfoModel, _ stabilization: VideoStabilizationRegistry) -> Bool {
        if case .run = stabilization.decision(for: file) { return true }
        return false
    }

    /// Readies file `index` to stream into the object store: nothing to download when the store
    /// holds its bytes already, else the request with the store's sink.
    private func streamed(
        _ index: Int, _ request: DownloadRequest, expected: [UInt8], into streaming: MediaObjectStreaming, ledger: LedgerWriter?,
        state: BatchState, emit: @escaping @Sendable (MediaImportEvent) -> Void
    ) -> DownloadRequest? {
        let file = files[index]
        state.setVerified(index, true)
        let target: MediaObjectStreamTarget
        do {
            target = try streaming.store.streamTarget(deviceID: streaming.deviceID, name: file.fileName, size: file.fileSize ?? 0, sha256: expected)
        } catch {
            let error = AIBudsError(
                .fileImportFailed, "storing \(file.fileName) in \(streaming.store.location(ofDevice: streaming.deviceID)) failed: \(error)",
                underlying: error)
            state.settle(index, failed(index, error, at: request.finalURL, state: state, emit: emit))
            return nil
        }
        switch target {
        case .stored(let url):
            logger.log(.info, "import", "\(file.fileName) is already stored at \(url.absoluteString)")
            state.settle(index, imported(
                index, url: url, path: url.absoluteString, sha256: expected, verified: true, bytes: 0, ledger: ledger, emit: emit))
            return nil
        case .sink(let sink):
            var prepared = request
            prepared.expectedSHA256 = expected
            prepared.sink = sink
            return prepared
        }
    }

    /// Settles file `index` with the engine's result.
    private func finished(
        _ index: Int, _ result: Result<DownloadResult, TransferError>, ledger: LedgerWriter?, state: BatchState,
        emit: @escaping @Sendable (MediaImportEvent) -> Void
    ) {
        switch result {
        case .success(let download):
            state.settle(index, imported(
                index, url: download.fileURL, path: download.filePath, sha256: download.sha256, verified: state.isVerified(index),
                bytes: UInt64(max(0, download.bytesReceived)), ledger: ledger, emit: emit))
        case .failure(let error):
            let file = files[index]
            let mapped = state.isCancelled ? Self.cancelled(file) : ImportErrorMapping.error(for: error, file: file)
            if mapped.code == .importFilesFailedDueToDeviceHotspotConnectionLost { state.abort(mapped) }
            let url = destination.appendingPathComponent((try? SafeFileName.make(from: file.fileName)) ?? "file-\(index)")
            state.settle(index, failed(index, mapped, at: url, state: state, emit: emit))
        }
    }

    /// Records a committed file in the ledger and reports it.
    private func imported(
        _ index: Int, url: URL, path: String, sha256: [UInt8], verified: Bool, bytes: UInt64, ledger: LedgerWriter?,
        emit: @Sendable (MediaImportEvent) -> Void
    ) -> TransferOutcome {
        let file = files[index]
        if let ledger, let deviceID = options.ledger?.deviceID {
            ledger.add(ImportLedgerEntry(
                deviceID: deviceID, name: file.fileName, size: file.fileSize ?? 0, sha256: sha256.hexString, localPath: path))
        }
        // A streamed file's URL is its object's: there is no local file.
        let model = ImportedMediaFileModel(
            metadata: file, localFileURL: url, stabilizationStatus: .pending, sha256: sha256.hexString, objectURL: url.isFileURL ? nil : url)
        if options.reportsProgress { emit(.fileFinished(model, taskID: taskID(index), error: nil)) }
        return .imported(model, verified: verified, bytesFetched: bytes, sixAxisData: nil)
    }

    /// Reports a failed file: a last chunk event with the error, then its completion.
    private func failed(
        _ index: Int, _ error: AIBudsError, at url: URL, state: BatchState, emit: @Sendable (MediaImportEvent) -> Void
    ) -> TransferOutcome {
        let file = files[index]
        let bytes = state.lastChunk(index) { unreported, transferred in
            guard options.reportsProgress else { return }
            emit(.chunk(MediaImportChunk(
                taskID: taskID(index), mediaFile: file, data: nil, count: Int(unreported), fileSize: file.fileSize ?? 0,
                transferredSize: transferred, error: error)))
        }
        let model = ImportedMediaFileModel(metadata: file, localFileURL: url, stabilizationStatus: .pending, error: error.nsError)
        if options.reportsProgress { emit(.fileFinished(model, taskID: taskID(index), error: error)) }
        return .failed(error, bytesFetched: bytes)
    }

    private func taskID(_ index: Int) -> String { "import-\(operationID)-\(index)" }

    private static func cancelled(_ file: MediaFileInfoModel) -> AIBudsError {
        AIBudsError(.importFilesCanceled, "the import of '\(file.fileName)' was cancelled; the next import resumes it (a small file starts over)")
    }

    // MARK: Six-axis data

    /// Adds the six-axis samples of every imported file that the stabilization phase will process.
    private func withSixAxisData(_ outcomes: [TransferOutcome]) async -> [TransferOutcome] {
        var result = outcomes
        for (index, outcome) in outcomes.enumerated() {
            guard case .imported(let model, let verified, let bytes, nil) = outcome, !Task.isCancelled,
                case .run = stabilization.decision(for: model.metadata)
            else { continue }
            result[index] = .imported(model, verified: verified, bytesFetched: bytes, sixAxisData: await sixAxisData(for: model))
        }
        return result
    }

    /// Downloads the six-axis samples of `file` (the device serves them as `<name>.gcsv`) into
    /// `.aibuds/sixaxis`, named after the video's local name (distinct for every imported file,
    /// NFC and NFD twins included); `nil` when they cannot be had (the stabilization of that file
    /// then fails, the import does not).
    private func sixAxisData(for model: ImportedMediaFileModel) async -> URL? {
        let file = model.metadata
        let name = file.fileName + "." + Self.sixAxisExtension
        do {
            let folder = destination.appendingPathComponent(".aibuds/sixaxis", isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let expected = options.verifiesDeviceHash ? try? await channel.mediaFileSHA256(named: name) : nil
            let request = DownloadRequest(
                endpoint: try DataPlaneEndpoint(baseURL: session.baseURL, token: session.token), deviceFileName: name,
                destinationDirectory: folder,
                localName: try SafeFileName.make(from: model.localFileURL.lastPathComponent + "." + Self.sixAxisExtension),
                expectedSHA256: expected, overwrite: true)
            return try await downloader.download(request).fileURL
        } catch {
            logger.log(.warning, "import", "the six-axis data of \(file.fileName) could not be downloaded: \(error)")
            return nil
        }
    }

    /// The extension under which a device serves a video's six-axis samples (Gyroflow's CSV).
    static let sixAxisExtension = "gcsv"
}

/// The shared state of one batch: each file's outcome and byte counts, cancellation, and the
/// failure that stops the files not yet started.
private final class BatchState: Sendable {
    private struct State {
        var outcomes: [TransferOutcome]
        var fetched: [UInt64]
        var transferred: [UInt64]
        /// Each file's size as the transfer learnt it, its bytes not yet reported in a chunk event,
        /// and when its last chunk event went out.
        var sizes: [UInt64]
        var unreported: [UInt64]
        var lastChunkEvent: [ContinuousClock.Instant?]
        /// The files with bytes held back (unreported > 0).
        var held: Set<Int> = []
        var verified: [Bool]
        var cancelled = false
        var abortReason: AIBudsError?
        /// The next file whose start the batch position announces, and the files taken after it.
        var nextAnnouncement = 0
        var taken: [Int: Bool] = [:]
    }

    private let state: Locked<State>

    init(count: Int) {
        state = Locked(State(
            outcomes: Array(repeating: .notStarted, count: count), fetched: Array(repeating: 0, count: count),
            transferred: Array(repeating: 0, count: count), sizes: Array(repeating: 0, count: count),
            unreported: Array(repeating: 0, count: count),
            lastChunkEvent: Array(repeating: nil, count: count), verified: Array(repeating: false, count: count)))
    }

    /// Records that a worker took file `index` (`started`: it starts, else it is left out) and
    /// calls `announce`, under the lock so that the order holds across workers, with every started
    /// file from the next one due, in index order, as far as the files taken reach.
    func settleAnnouncement(_ index: Int, started: Bool, _ announce: (Int) -> Void) {
        state.withLock { state in
            state.taken[index] = started
            while let starts = state.taken.removeValue(forKey: state.nextAnnouncement) {
                if starts { announce(state.nextAnnouncement) }
                state.nextAnnouncement += 1
            }
        }
    }

    /// Whether another file may start (not cancelled, no batch-ending failure).
    var mayStart: Bool { state.withLock { !$0.cancelled && $0.abortReason == nil } }
    /// Whether the import was cancelled.
    var isCancelled: Bool { state.withLock { $0.cancelled } }

    func cancel() { state.withLock { $0.cancelled = true } }
    func abort(_ reason: AIBudsError) { state.withLock { $0.abortReason = $0.abortReason ?? reason } }
    func setVerified(_ index: Int, _ verified: Bool) { state.withLock { $0.verified[index] = verified } }
    func isVerified(_ index: Int) -> Bool { state.withLock { $0.verified[index] } }
    func settle(_ index: Int, _ outcome: TransferOutcome) { state.withLock { $0.outcomes[index] = outcome } }
    /// How often at most a file's chunks are reported (when they carry no bytes).
    static let chunkEventInterval = Duration.milliseconds(50)

    // A file's chunk events are reported under the lock, so that they keep their order whichever
    // thread reports them (the file's worker, or the task that reports held-back bytes).

    /// Adds `count` bytes of file `index` and reports the bytes since its last chunk event, when
    /// `reportNow` or when that event is `chunkEventInterval` old (its first chunk counts as one).
    func progress(
        _ index: Int, count: UInt64, transferred: UInt64, size: UInt64, reportNow: Bool, report: (_ count: UInt64) -> Void
    ) {
        let now = ContinuousClock.now
        state.withLock { state in
            state.fetched[index] += count
            state.transferred[index] = transferred
            state.sizes[index] = size
            state.unreported[index] += count
            let last = state.lastChunkEvent[index]
            if last == nil { state.lastChunkEvent[index] = now }
            guard reportNow || last.map({ now - $0 >= Self.chunkEventInterval }) == true else {
                state.held.insert(index)
                return
            }
            state.lastChunkEvent[index] = now
            report(state.unreported[index])
            state.unreported[index] = 0
            state.held.remove(index)
        }
    }

    /// Adds `count` bytes of file `index` without reporting them (an import that reports no progress).
    func count(_ index: Int, count: UInt64, transferred: UInt64) {
        state.withLock { state in
            state.fetched[index] += count
            state.transferred[index] = transferred
        }
    }

    /// Reports the bytes held back for each file whose last chunk event is `chunkEventInterval`
    /// old.
    func reportHeldChunks(report: (_ index: Int, _ count: UInt64, _ transferred: UInt64, _ size: UInt64) -> Void) {
        let now = ContinuousClock.now
        state.withLock { state in
            for index in state.held.sorted() {
                guard let last = state.lastChunkEvent[index], now - last >= Self.chunkEventInterval else { continue }
                state.lastChunkEvent[index] = now
                if state.unreported[index] > 0 {
                    report(index, state.unreported[index], state.transferred[index], state.sizes[index])
                }
                state.unreported[index] = 0
                state.held.remove(index)
            }
        }
    }

    /// Reports the last chunk of a failed file (its held-back bytes and how much is on disk);
    /// returns the bytes fetched for it.
    func lastChunk(_ index: Int, report: (_ unreported: UInt64, _ transferred: UInt64) -> Void) -> UInt64 {
        state.withLock { state in
            report(state.unreported[index], state.transferred[index])
            state.unreported[index] = 0
            state.held.remove(index)
            return state.fetched[index]
        }
    }

    /// Every outcome. Unless the import was cancelled, a file never started is a failure: with the
    /// reason the batch ended (the hotspot connection lost, say), or, when the download engine left
    /// it out for a reason of its own, with that said.
    func outcomes() -> [TransferOutcome] {
        state.withLock { state in
            guard !state.cancelled else { return state.outcomes }
            let reason = state.abortReason ?? AIBudsError(.fileImportFailed, "the batch ended before this file started")
            return state.outcomes.map { outcome in
                guard case .notStarted = outcome else { return outcome }
                return .failed(AIBudsError(reason.code, "not started: \(reason.message)", underlying: reason,
                                           deviceStatusCode: reason.deviceStatusCode), bytesFetched: 0)
            }
        }
    }
}

/// Asks the device for the SHA-256 of the files a little ahead of the downloads, so that the
/// round trips overlap the transfers; a worker thread blocks on the one it needs next. Files
/// whose name is `nil` (their digest is known) are not asked for.
final class HashPrefetcher: Sendable {
    private let names: [String?]
    private let lookahead: Int
    private let fetch: @Sendable (String) async throws -> [UInt8]?
    /// Requests not yet waited for, every index ever started (so a file waited for early is not
    /// asked for again when a lower index is waited for later), and whether all was cancelled.
    private let tasks = Locked<(running: [Int: Task<[UInt8]?, any Error>], started: Set<Int>, cancelled: Bool)>(
        ([:], [], false))

    /// Creates a prefetcher of `names`, `lookahead` requests ahead of the file waited for.
    init(names: [String?], lookahead: Int, fetch: @escaping @Sendable (String) async throws -> [UInt8]?) {
        self.names = names
        self.lookahead = lookahead
        self.fetch = fetch
    }

    /// The SHA-256 of file `index` (blocking the calling thread, which must not be one of Swift
    /// concurrency's); starts the requests of the next files.
    func wait(_ index: Int) -> Result<[UInt8]?, any Error> {
        let task: Task<[UInt8]?, any Error>? = tasks.withLock { tasks in
            guard !tasks.cancelled else { return nil }
            for next in index..<min(names.count, index + lookahead + 1) where !tasks.started.contains(next) {
                guard let name = names[next] else { continue }
                tasks.started.insert(next)
                tasks.running[next] = Task { [fetch] in try await fetch(name) }
            }
            // It stays in `running` while waited for, so that `cancel` reaches it too.
            return tasks.running[index]
        }
        guard let task else { return .failure(CancellationError()) }
        let done = DispatchSemaphore(value: 0)
        let outcome = Locked<Result<[UInt8]?, any Error>>(.failure(CancellationError()))
        Task {
            let result = await task.result
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        tasks.withLock { _ = $0.running.removeValue(forKey: index) }
        return outcome.withLock { $0 }
    }

    /// Cancels every request, running or later.
    func cancel() {
        let running = tasks.withLock { tasks in
            tasks.cancelled = true
            defer { tasks.running.removeAll() }
            return Array(tasks.running.values)
        }
        for task in running { task.cancel() }
    }
}
