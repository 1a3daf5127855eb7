import AIBudsLog

/// One worker thread of a batch download: takes files from the batch, downloads each to its
/// verified partial file, and hands it to the commit queue.
///
/// A worker keeps up to `pipelineDepth` files queued: the plain GETs of those without partial
/// state go ahead on its connection (see `HTTPPipeline`), so the device sends the next file while
/// this one is written and hashed. The queue is refilled when one file is left in it, so the
/// GETs of the files taken then share one write. A file with partial state (it resumes with `Range`) ends the
/// queue and runs on its own once the files before it are done. Files are taken beyond the first
/// only while more than `reserve` remain, so that a small batch still spreads over the workers.
struct DownloadWorker: Sendable {
    let requests: [DownloadRequest]
    let configuration: HTTPFileDownloader.Configuration
    let pool: HTTPConnectionPool
    let logger: any LogService
    let scope: DownloadScope
    let batch: DownloadBatch
    let commits: CommitQueue
    let folders: DestinationFolders
    let hooks: DownloadBatchHooks?
    let progress: (@Sendable (Int, DownloadProgress) -> Void)?
    let reserve: Int

    /// A file taken from the batch, checked, not yet run.
    private struct Queued {
        let index: Int
        let job: FileDownloadJob
        let target: FileDownloadJob.Target
        /// Its plain GET, when it may go ahead on the pipeline.
        let aheadRequest: [UInt8]?
    }

    /// Runs files until the batch has none left, streaming through `buffer`.
    func run(buffer: UnsafeMutableRawBufferPointer) {
        let depth = max(1, configuration.pipelineDepth)
        var queue: [Queued] = []
        var pipeline: HTTPPipeline?
        defer { pipeline?.release(to: pool) }
        while true {
            // Refill only when at most the file to run next is left, so that the GETs of the
            // files taken go out together in one write, not one write per file.
            let refills = queue.count <= 1
            while refills, queue.count < depth, queue.last.map({ $0.aheadRequest != nil }) ?? true,
                let index = batch.next(reserve: queue.isEmpty ? 0 : reserve)
            {
                if let queued = take(index, depth: depth, pipeline: &pipeline) { queue.append(queued) }
            }
            guard let front = queue.first else { return }
            // Send the requests not sent yet (all of them after a connection was dropped).
            if let pipeline, front.aheadRequest != nil, !front.job.isCancelled {
                let unsent = queue.dropFirst(pipeline.unanswered).prefix { $0.aheadRequest != nil && !$0.job.isCancelled }
                _ = pipeline.send(unsent.compactMap(\.aheadRequest), pool: pool, configuration: configuration)
            }
            let sent = front.aheadRequest != nil ? pipeline.flatMap { $0.unanswered > 0 ? $0 : nil } : nil
            let unansweredBefore = sent?.unanswered ?? 0
            let outcome = execute(front, buffer: buffer, pipeline: sent)
            // A response left unread (the file failed or was cancelled first) makes the
            // connection unusable for those that follow: they go again on a new one.
            if let sent, sent.connection != nil, sent.unanswered == unansweredBefore { sent.reset() }
            queue.removeFirst()
            deliver(front.index, outcome)
        }
    }

    /// Prepares and checks file `index`; nil when it already has its result.
    private func take(_ index: Int, depth: Int, pipeline: inout HTTPPipeline?) -> Queued? {
        guard let request = hooks.map({ $0.prepare(index, requests[index]) }) ?? requests[index] else {
            batch.finish(index, .failure(TransferError(.cancelled, "\(requests[index].localName) was left out")))
            return nil
        }
        let job = FileDownloadJob(request: request, configuration: configuration, pool: pool, logger: logger) { progress?(index, $0) }
        guard scope.register(job) else {
            deliver(index, .failure(TransferError(.cancelled, "the download of \(request.localName) was cancelled before it started")))
            return nil
        }
        do {
            let target = try job.check(folders: folders)
            var aheadRequest: [UInt8]?
            if depth > 1, target.isNew {
                let link = pipeline ?? HTTPPipeline(address: target.address)
                pipeline = link
                if link.address == target.address { aheadRequest = job.plainRequest(target) }
            }
            return Queued(index: index, job: job, target: target, aheadRequest: aheadRequest)
        } catch {
            scope.unregister(job)
            deliver(index, .failure(failure(error, of: request)))
            return nil
        }
    }

    /// Downloads and verifies one queued file; its commit is left to `deliver`.
    private func execute(_ queued: Queued, buffer: UnsafeMutableRawBufferPointer, pipeline: HTTPPipeline?) -> Result<(DownloadResult, PendingCommit?), TransferError> {
        defer { scope.unregister(queued.job) }
        do {
            return .success(try queued.job.run(buffer: buffer, target: queued.target, pipeline: pipeline))
        } catch {
            return .failure(failure(error, of: queued.job.request))
        }
    }

    private func failure(_ error: any Error, of request: DownloadRequest) -> TransferError {
        guard let error = error as? TransferError else { return TransferError(.localFileError, "\(error)", underlying: error) }
        logger.log(error.code == .cancelled ? .info : .error, "transfer", "\(request.localName): \(error)")
        return error
    }

    /// Reports a failure at once, or commits a verified file and reports it once committed.
    private func deliver(_ index: Int, _ outcome: Result<(DownloadResult, PendingCommit?), TransferError>) {
        switch outcome {
        case .failure(let error):
            hooks?.finished(index, .failure(error))
            batch.finish(index, .failure(error))
        case .success(let (result, nil)):
            // A sink stored it: nothing to commit.
            hooks?.finished(index, .success(result))
            batch.finish(index, .success(result))
        case .success(let (result, pending?)):
            commits.submit(pending) { [logger, hooks, batch] outcome in
                if case .failure(let error) = outcome { logger.log(.error, "transfer", "\(result.fileURL.lastPathComponent): \(error)") }
                hooks?.finished(index, outcome.map { result })
                batch.finish(index, outcome.map { result })
            }
        }
    }
}
