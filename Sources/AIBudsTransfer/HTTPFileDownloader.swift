import AIBudsLog
import AIBudsNet
import AIBudsSync
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The SDK's HTTP download engine for the device's data plane.
///
/// Each file streams through one fixed buffer into `<dest>/.partial/<name>.part` (memory stays
/// constant whatever the file size), is hashed with SHA-256 as it is written, resumes after a
/// dropped connection with `Range` + `If-Range` (a changed file starts over), is checked against
/// the expected size and digest, then made durable and renamed into place. Connections are kept
/// alive and reused across files. Downloads run on their own threads with blocking socket I/O,
/// so they never occupy Swift concurrency's cooperative threads.
public final class HTTPFileDownloader: Sendable {
    /// Tuning of the engine.
    public struct Configuration: Sendable, Hashable {
        /// The bytes read from the socket and written to the file at a time.
        public var bufferSize: Int
        /// How long connecting may take.
        public var connectTimeout: Duration
        /// How long a read or write may make no progress.
        public var ioTimeout: Duration
        /// How dropped downloads are retried.
        public var retry: RetryPolicy
        /// Idle keep-alive connections kept per device.
        public var maxIdleConnectionsPerHost: Int
        /// Files downloaded at once by `download(_:parallelism:progress:)` when not told.
        public var parallelism: Int
        /// Finished files that may wait for their commit (durability and rename, done beside
        /// the downloads) before downloads pause.
        public var commitWidth: Int
        /// Requests a worker keeps sent on its connection before their responses are read
        /// (HTTP/1.1 pipelining, for files without partial state); 1 sends each request only
        /// when the previous response has been read.
        public var pipelineDepth: Int
        /// How long a connection may stay below `minimumTransferRate` while a response body is
        /// read (a peer that trickles or sends nothing) before the attempt ends with
        /// `TransferError.Code.stalled` and the retry policy takes over.
        public var stallTimeout: Duration
        /// Bytes a second that a body must average over each `stallTimeout` window: fewer, and the
        /// connection counts as stalled (0 accepts any trickle and detects only silence).
        public var minimumTransferRate: Int64
        /// How long a response head may take to arrive whole once the engine waits for it (a peer
        /// that accepts and never answers) before the attempt ends with
        /// `TransferError.Code.responseHeadTimeout` and the retry policy takes over.
        public var responseHeadTimeout: Duration
        /// New files expected to be at most this many bytes are written unnamed in their
        /// destination (`O_TMPFILE`) and linked to their name by their commit, instead of going
        /// through `.partial/` (see `PartialFile`); 0 sends every file through `.partial/`.
        var unnamedFileLimit: Int64 = 1 << 20

        /// Creates a configuration; the defaults are the measured best on this project's
        /// benchmark machine (docs/benchmarks.md).
        public init(
            bufferSize: Int = 1 << 20, connectTimeout: Duration = .seconds(5), ioTimeout: Duration = .seconds(30),
            retry: RetryPolicy = RetryPolicy(), maxIdleConnectionsPerHost: Int = 8, parallelism: Int = 6, commitWidth: Int = 128,
            pipelineDepth: Int = 3, stallTimeout: Duration = .seconds(30), minimumTransferRate: Int64 = 1024,
            responseHeadTimeout: Duration = .seconds(30)
        ) {
            self.bufferSize = bufferSize
            self.connectTimeout = connectTimeout
            self.ioTimeout = ioTimeout
            self.retry = retry
            self.maxIdleConnectionsPerHost = maxIdleConnectionsPerHost
            self.parallelism = parallelism
            self.commitWidth = commitWidth
            self.pipelineDepth = pipelineDepth
            self.stallTimeout = stallTimeout
            self.minimumTransferRate = minimumTransferRate
            self.responseHeadTimeout = responseHeadTimeout
        }
    }

    /// The engine's configuration.
    public let configuration: Configuration
    private let logger: any LogService
    private let pool: HTTPConnectionPool
    private let scopes = Locked<[ObjectIdentifier: DownloadScope]>([:])

    /// An engine with its own pool of kept-alive connections; `logger` hears retries and failures.
    public init(configuration: Configuration = Configuration(), logger: any LogService = NullLogService()) {
        self.configuration = configuration
        self.logger = logger
        self.pool = HTTPConnectionPool(maxIdlePerHost: configuration.maxIdleConnectionsPerHost)
    }

    deinit { pool.closeAll() }

    /// Downloads one file; cancelling the task (or `cancelAll`) stops it with
    /// `TransferError.cancelled`; a file over the unnamed-file limit (1 MiB) keeps its partial
    /// file for a resume, a smaller one is fetched again in full.
    public func download(_ request: DownloadRequest, progress: (@Sendable (DownloadProgress) -> Void)? = nil) async throws -> DownloadResult {
        let results = await download([request], parallelism: 1) { _, update in progress?(update) }
        return try results[0].get()
    }

    /// Downloads files, `parallelism` at a time (default `configuration.parallelism`); returns
    /// one result per request, in order. `progress` receives the request's index; `hooks` let
    /// the caller prepare each file when a worker takes it (up to `pipelineDepth` files ahead of
    /// the one downloading) and hear of each result as it comes.
    public func download(
        _ requests: [DownloadRequest], parallelism: Int? = nil, hooks: DownloadBatchHooks? = nil,
        progress: (@Sendable (Int, DownloadProgress) -> Void)? = nil
    ) async -> [Result<DownloadResult, TransferError>] {
        guard !requests.isEmpty else { return [] }
        let scope = DownloadScope()
        scopes.withLock { $0[ObjectIdentifier(scope)] = scope }
        defer { scopes.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(scope)) } }
        let workers = min(max(1, parallelism ?? configuration.parallelism), requests.count)
        let commits = CommitQueue(maxPending: configuration.commitWidth)
        let folders = DestinationFolders()
        let running = Atomic(workers)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let batch = DownloadBatch(count: requests.count) { results in
                    // One directory sync per destination makes every committed name durable.
                    let syncsFileSystem = commits.linkedUnnamedFiles
                    for directory in Set(requests.map(\.destinationPath)) {
                        FileRenamer.finishDestination(directory, syncsFileSystem: syncsFileSystem)
                    }
                    continuation.resume(returning: results)
                }
                for number in 0..<workers {
                    let worker = DownloadWorker(
                        requests: requests, configuration: configuration, pool: pool, logger: logger, scope: scope, batch: batch,
                        commits: commits, folders: folders, hooks: hooks, progress: progress, reserve: workers)
                    let thread = Thread { [self] in
                        let buffer = makeBuffer()
                        defer { buffer.deallocate() }
                        // The last worker out lets the committer finish the last group at once.
                        defer { if running.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 { commits.stop() } }
                        worker.run(buffer: buffer)
                    }
                    thread.name = "aibuds-download-\(number)"
                    thread.start()
                }
            }
        } onCancel: {
            scope.cancel()
        }
    }

    /// Downloads one file on the calling thread, blocking it; for tools and benchmarks.
    public func downloadBlocking(_ request: DownloadRequest, progress: (@Sendable (DownloadProgress) -> Void)? = nil) throws -> DownloadResult {
        let scope = DownloadScope()
        scopes.withLock { $0[ObjectIdentifier(scope)] = scope }
        defer { scopes.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(scope)) } }
        let buffer = makeBuffer()
        defer { buffer.deallocate() }
        let (result, pending) = try runOne(request, scope: scope, buffer: buffer, progress: progress).get()
        try pending?.commit(syncDirectory: true)
        return result
    }

    /// Cancels every download in progress; each ends with `TransferError.cancelled`.
    public func cancelAll() {
        let all = scopes.withLock { Array($0.values) }
        for scope in all { scope.cancel() }
    }

    /// Closes the kept-alive connections (for example when leaving transfer mode).
    public func closeIdleConnections() { pool.closeAll() }

    /// Removes the download state of local file `localName` in `destination` (its `.partial/`
    /// file and resume record), for a caller that found the file already there, complete: an
    /// interrupted download of it is debris. A partial file that a download holds (its lock) is
    /// left alone; the empty `.partial/` folder goes when a batch into `destination` ends.
    public static func removePartialState(of localName: String, in destination: URL) {
        let paths = DownloadPaths(destinationPath: DownloadRequest.path(of: destination), localName: localName)
        guard case .success(let descriptor) = SystemCall.result("open", { open(paths.partialFile, O_RDWR | O_CLOEXEC) }) else {
            unlink(paths.metaFile)
            return
        }
        defer { SystemCall.closeIgnoringErrors(descriptor) }
        guard case .success = SystemCall.result("flock", { flock(descriptor, LOCK_EX | LOCK_NB) }) else { return }
        unlink(paths.partialFile)
        unlink(paths.metaFile)
    }

    /// A download buffer: block-aligned for direct writes, at least 64 KiB.
    private func makeBuffer() -> UnsafeMutableRawBufferPointer {
        let size = max(configuration.bufferSize, 64 * 1024)
        let aligned = (size + PartialFile.directAlignment - 1) / PartialFile.directAlignment * PartialFile.directAlignment
        return UnsafeMutableRawBufferPointer.allocate(byteCount: aligned, alignment: PartialFile.directAlignment)
    }

    /// Downloads and verifies one file; its commit is left to the caller.
    private func runOne(
        _ request: DownloadRequest, scope: DownloadScope, buffer: UnsafeMutableRawBufferPointer, progress: (@Sendable (DownloadProgress) -> Void)?
    ) -> Result<(DownloadResult, PendingCommit?), TransferError> {
        let job = FileDownloadJob(request: request, configuration: configuration, pool: pool, logger: logger, progress: progress)
        guard scope.register(job) else {
            return .failure(TransferError(.cancelled, "the download of \(request.localName) was cancelled before it started"))
        }
        defer { scope.unregister(job) }
        do {
            let (result, pending) = try job.run(buffer: buffer)
            return .success((result, pending))
        } catch let error as TransferError {
            logger.log(error.code == .cancelled ? .info : .error, "transfer", "\(request.localName): \(error)")
            return .failure(error)
        } catch {
            return .failure(TransferError(.localFileError, "\(error)", underlying: error))
        }
    }
}

/// Per-file steps of a batch download, called on the worker thread that runs the file.
public struct DownloadBatchHooks: Sendable {
    /// Called just before file `index` starts, with its request: returns the request to run (for
    /// example with the expected digest, known only now), or `nil` to leave the file out (its
    /// result is then `cancelled` and `finished` is not called for it).
    public var prepare: @Sendable (_ index: Int, _ request: DownloadRequest) -> DownloadRequest?
    /// Called once file `index` has its result: committed (renamed into place), or failed.
    public var finished: @Sendable (_ index: Int, _ result: Result<DownloadResult, TransferError>) -> Void

    /// Hooks from the two closures; both run on the engine's worker and commit threads, so they
    /// must not block for long.
    public init(
        prepare: @escaping @Sendable (_ index: Int, _ request: DownloadRequest) -> DownloadRequest?,
        finished: @escaping @Sendable (_ index: Int, _ result: Result<DownloadResult, TransferError>) -> Void
    ) {
        self.prepare = prepare
        self.finished = finished
    }
}

/// The jobs of one `download` call, cancelled together.
final class DownloadScope: Sendable {
    private struct State {
        var cancelled = false
        var jobs: [ObjectIdentifier: FileDownloadJob] = [:]
    }

    private let state = Locked(State())

    /// Adds a job; false when the scope is already cancelled.
    func register(_ job: FileDownloadJob) -> Bool {
        state.withLock { state in
            guard !state.cancelled else { return false }
            state.jobs[ObjectIdentifier(job)] = job
            return true
        }
    }

    func unregister(_ job: FileDownloadJob) {
        state.withLock { _ = $0.jobs.removeValue(forKey: ObjectIdentifier(job)) }
    }

    func cancel() {
        let jobs = state.withLock { state in
            state.cancelled = true
            return Array(state.jobs.values)
        }
        for job in jobs { job.cancel() }
    }
}

/// Hands out request indices to worker threads and collects results; calls `completion` once,
/// outside its lock, when every request has a result.
final class DownloadBatch: Sendable {
    private struct State {
        var nextIndex = 0
        var results: [Result<DownloadResult, TransferError>?]
        var finished = 0
    }

    private let state: Locked<State>
    private let completion: @Sendable ([Result<DownloadResult, TransferError>]) -> Void

    init(count: Int, completion: @escaping @Sendable ([Result<DownloadResult, TransferError>]) -> Void) {
        self.state = Locked(State(results: Array(repeating: nil, count: count)))
        self.completion = completion
    }

    /// The next request to start, or nil when all have started, or when no more than `reserve`
    /// remain (left for workers with nothing to do).
    func next(reserve: Int = 0) -> Int? {
        state.withLock { state in
            guard state.results.count - state.nextIndex > reserve else { return nil }
            defer { state.nextIndex += 1 }
            return state.nextIndex
        }
    }

    /// Records the result of a request.
    func finish(_ index: Int, _ result: Result<DownloadResult, TransferError>) {
        let all: [Result<DownloadResult, TransferError>]? = state.withLock { state in
            state.results[index] = result
            state.finished += 1
            guard state.finished == state.results.count else { return nil }
            return state.results.map { $0 ?? .failure(TransferError(.cancelled, "not started")) }
        }
        if let all { completion(all) }
    }
}
