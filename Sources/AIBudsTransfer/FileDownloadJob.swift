import AIBudsDigest
import AIBudsLog
import AIBudsNet
import AIBudsSync
import AIBudsHTTPWire
import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One file's download, run to completion on the calling thread with blocking socket I/O:
/// requests, resumes after drops, verification and the atomic commit.
final class FileDownloadJob: Sendable {
    /// How an attempt ended without throwing.
    private enum Outcome {
        /// The whole file is in the partial file.
        case complete
        /// Try again at once (the partial file was restarted).
        case again
    }

    /// A failure worth a retry after a pause.
    private struct Retryable: Error {
        var error: TransferError
    }

    /// Room for a response head when reading a head and the body expected after it.
    private static let headAllowance: Int64 = 4096

    /// A kept-alive connection that turned out to be closed before any response byte.
    private struct StaleConnection: Error {}

    /// No whole response head within `responseHeadTimeout`.
    private struct HeadTimeout: Error {}

    /// The stall detector of one response body: a window of `stallTimeout` must bring at least
    /// `minimumTransferRate × stallTimeout` bytes (at least one); the next window starts where the
    /// last ended. Reads wait no longer than the window, so a silent peer is judged on time too.
    private struct StallWindow {
        /// The body was too slow in a whole window.
        struct Stalled: Error {
            /// Bytes that came in that window.
            let received: Int64
        }

        private let length: Duration
        private let minimumBytes: Int64
        private var start = ContinuousClock.now
        private var bytes: Int64 = 0

        init(_ configuration: HTTPFileDownloader.Configuration) {
            length = max(configuration.stallTimeout, .milliseconds(1))
            let (seconds, attoseconds) = length.components
            let rate = Double(max(0, configuration.minimumTransferRate))
            minimumBytes = max(1, Int64(clamping: UInt64(min(rate * (Double(seconds) + Double(attoseconds) / 1e18), 9e18))))
        }

        /// Whether the current window has ended.
        var windowEnded: Bool { ContinuousClock.now - start >= length }

        mutating func received(_ count: Int) { bytes += Int64(count) }

        /// Judges a window that has ended (throws `Stalled`, or starts the next one) and returns how
        /// long the next read may wait: `ioTimeout`, or less when the window ends sooner.
        mutating func readTimeout(_ ioTimeout: Duration) throws -> Duration {
            let now = ContinuousClock.now
            if now - start >= length {
                guard bytes >= minimumBytes else { throw Stalled(received: bytes) }
                start = now
                bytes = 0
            }
            return min(ioTimeout, start + length - now)
        }
    }

    let request: DownloadRequest
    private let configuration: HTTPFileDownloader.Configuration
    private let pool: HTTPConnectionPool
    private let logger: any LogService
    private let progress: (@Sendable (DownloadProgress) -> Void)?
    private let cancelled = Atomic<Bool>(false)
    private let current = Locked<TCPConnection?>(nil)
    private let wakeup = DispatchSemaphore(value: 0)

    init(
        request: DownloadRequest, configuration: HTTPFileDownloader.Configuration, pool: HTTPConnectionPool, logger: any LogService,
        progress: (@Sendable (DownloadProgress) -> Void)?
    ) {
        self.request = request
        self.configuration = configuration
        self.pool = pool
        self.logger = logger
        self.progress = progress
    }

    /// Stops the download as soon as possible; `run` then throws `TransferError.cancelled`.
    func cancel() {
        cancelled.store(true, ordering: .releasing)
        current.withLock { $0?.shutdown() }
        wakeup.signal()
    }

    /// Whether `cancel` was called.
    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    /// Where a checked request goes.
    struct Target {
        /// The request target, `/media/<percent-encoded name>`.
        let path: String
        let address: SocketAddress
        let paths: DownloadPaths
        /// The batch saw no partial state of this file: it starts from byte 0 with a plain GET.
        let isNew: Bool
        /// Where the sink of a streamed request stopped before.
        var resume: DownloadSinkResume? = nil
    }

    /// The cancellation error; `run` adds whether a partial file was kept.
    private var cancelledError: TransferError {
        TransferError(.cancelled, "the download of \(request.localName) was cancelled")
    }

    /// Downloads and verifies the file, streaming through `buffer` (block-aligned, at least
    /// 64 KiB); the caller commits it.
    func run(buffer: UnsafeMutableRawBufferPointer) throws -> (result: DownloadResult, commit: PendingCommit?) {
        try run(buffer: buffer, target: check(folders: nil), pipeline: nil)
    }

    /// Checks the request before anything is sent: its local name, the destination, and that the
    /// file is not there already (unless it may be replaced). The endpoint was checked when made.
    /// A streamed request has no local file: its sink says where an earlier download stopped.
    func check(folders: DestinationFolders?) throws -> Target {
        if let unusable = request.endpoint.unusable { throw unusable }
        let path = request.endpoint.target(forDeviceName: request.deviceFileName)
        if let sink = request.sink {
            let resume: DownloadSinkResume?
            do {
                resume = try sink.resumePoint()
            } catch let error as TransferError {
                throw error
            } catch {
                throw TransferError(.sinkFailed, "the destination of \(request.localName) cannot say what it holds: \(error)", underlying: error)
            }
            guard !isCancelled else { throw cancelledError }
            return Target(
                path: path, address: request.endpoint.address, paths: DownloadPaths(request), isNew: resume == nil, resume: resume)
        }
        guard SafeFileName.isSafe(request.localName) else {
            throw TransferError(.unsafeFileName, "\"\(request.localName)\" is not a safe local file name")
        }
        let paths = DownloadPaths(request)
        let folder = folders?.folder(paths)
        try checkDestination(paths, failure: folder.map(\.failure) ?? DestinationFolders.check(paths))
        guard !isCancelled else { throw cancelledError }

        return Target(
            path: path, address: request.endpoint.address, paths: paths, isNew: folder.map { !$0.namesWithState.contains(request.localName) } ?? false)
    }

    /// The request for the file from byte 0, as sent ahead on a pipelined connection.
    func plainRequest(_ target: Target) -> [UInt8] {
        requestHead(path: target.path, range: nil)
    }

    /// Downloads and verifies the checked file; with `pipeline`, its plain GET is the oldest
    /// unanswered request on the pipeline's connection, and the first attempt reads its response.
    /// A verified file is returned with its pending commit, or none when a sink stored it.
    func run(buffer: UnsafeMutableRawBufferPointer, target: Target, pipeline: HTTPPipeline?) throws -> (result: DownloadResult, commit: PendingCommit?) {
        guard !isCancelled else { throw cancelledError }
        if let sink = request.sink {
            var body = StreamedBody(sink: sink, url: request.url, resume: target.resume)
            return try run(&body, buffer: buffer, target: target, pipeline: pipeline)
        }
        var part = try PartialFile(
            paths: target.paths, url: request.url, path: target.path, expectedSize: request.expectedSize, isNew: target.isNew,
            unnamedLimit: request.overwrite ? 0 : configuration.unnamedFileLimit, buffer: buffer)
        return try run(&part, buffer: buffer, target: target, pipeline: pipeline)
    }

    /// Downloads into `part`, verifies, and hands the bytes over.
    private func run(
        _ part: inout some DownloadBody, buffer: UnsafeMutableRawBufferPointer, target: Target, pipeline: HTTPPipeline?
    ) throws -> (result: DownloadResult, commit: PendingCommit?) {
        let path = target.path
        let address = target.address
        let paths = target.paths
        var pipelined = pipeline
        var resumed = part.length
        var received: Int64 = 0
        var attempts = 0
        var retries = 0
        var failuresWithoutProgress = 0
        do {
            var digest: [UInt8] = []
            verified: while true {
                attemptLoop: while true {
                    guard !isCancelled else { throw cancelledError }
                    attempts += 1
                    let before = part.length
                    do {
                        switch try attempt(path: path, address: address, pipeline: &pipelined, part: &part, buffer: buffer, received: &received) {
                        case .complete: break attemptLoop
                        case .again: continue attemptLoop
                        }
                    } catch let failure as Retryable {
                        guard !isCancelled else { throw cancelledError }
                        retries += 1
                        failuresWithoutProgress = part.length > before ? 0 : failuresWithoutProgress + 1
                        guard retries <= configuration.retry.maxRetries,
                            failuresWithoutProgress <= configuration.retry.maxRetriesWithoutProgress
                        else { throw failure.error }
                        let wait = configuration.retry.backoff(afterFailures: max(1, failuresWithoutProgress))
                        logger.log(.info, "transfer", "\(request.localName): \(failure.error); retry \(retries) at byte \(part.length) in \(wait)")
                        _ = wakeup.wait(timeout: .now() + .nanoseconds(Int(wait.components.seconds * 1_000_000_000 + wait.components.attoseconds / 1_000_000_000)))
                    }
                }
                guard !isCancelled else { throw cancelledError }
                do {
                    digest = try verify(&part)
                    break verified
                } catch let error as TransferError where error.code == .checksumMismatch && resumed > 0 {
                    // Bytes kept from an earlier run do not hash to the file (a power loss can leave
                    // a partial file longer than what reached the disk): fetch it whole, once.
                    logger.log(.warning, "transfer", "\(request.localName): \(error.message) with \(resumed) bytes resumed; fetching it again from byte 0")
                    try part.restart()
                    resumed = 0
                }
            }
            logger.log(.debug, "transfer", "\(request.localName): \(part.length) bytes in \(attempts) request(s)")
            var commit: PendingCommit?
            var fileURL: URL
            switch try part.finish(overwrite: request.overwrite, sha256: digest) {
            case .commit(let pending):
                commit = pending
                // The URL from the path built once (cheaper than appending to the folder's URL).
                fileURL = URL(fileURLWithPath: paths.finalFile, isDirectory: false)
            case .stored(let url):
                fileURL = url
            }
            let result = DownloadResult(
                fileURL: fileURL, filePath: commit == nil ? fileURL.absoluteString : paths.finalFile, size: part.length,
                sha256: digest, bytesReceived: received, bytesResumed: resumed, attempts: attempts)
            return (result, commit)
        } catch {
            if let error = error as? TransferError, error.code == .sizeMismatch || error.code == .checksumMismatch {
                part.discard()
            } else if part.length == 0 {
                part.discard()  // nothing to resume: leave no empty partial file behind
            } else {
                part.saveValidator()
                part.close()
            }
            if let error = error as? TransferError, error.code == .cancelled {
                // Say what a resume will find: an unnamed or empty file is gone with the cancel.
                let kept = part.keepsBytesForResume
                throw TransferError(
                    .cancelled, error.message + (kept ? "; its partial file is kept for a resume" : "; nothing of it was kept"))
            }
            throw error
        }
    }

    private func checkDestination(_ paths: DownloadPaths, failure: Int32?) throws {
        if let failure {
            throw TransferError(.localFileError, "the destination \(paths.destination) is not a folder",
                underlying: FileSystemFailure(operation: "stat", path: paths.destination, errno: failure))
        }
        if !request.overwrite, !request.finalNameCheckedFree, access(paths.finalFile, F_OK) == 0 {
            throw TransferError(.fileExists, "\(paths.finalFile) already exists")
        }
    }

    /// Checks the size and digest against what the device said.
    private func verify(_ part: inout some DownloadBody) throws -> [UInt8] {
        if let size = part.validator?.size, size != part.length {
            throw TransferError(.sizeMismatch, "\(request.localName): got \(part.length) bytes, the device announced \(size)")
        }
        if let expected = request.expectedSize, expected != part.length {
            throw TransferError(.sizeMismatch, "\(request.localName): got \(part.length) bytes, expected \(expected)")
        }
        let digest = part.finalizeDigest()
        if let expected = request.expectedSHA256, expected != digest {
            throw TransferError(.checksumMismatch, "\(request.localName): SHA-256 \(digest.hexString) differs from the device's \(expected.hexString)")
        }
        return digest
    }

    /// One request and its response, on a pooled connection; a stale kept-alive connection is
    /// replaced once without counting as an attempt.
    private func attempt(
        path: String, address: SocketAddress, pipeline pipelined: inout HTTPPipeline?, part: inout some DownloadBody, buffer: UnsafeMutableRawBufferPointer,
        received: inout Int64
    ) throws -> Outcome {
        // The request went ahead on the worker's connection: read its response there, once.
        if let pipeline = pipelined, let connection = pipeline.connection, part.length == 0 {
            pipelined = nil
            current.withLock { $0 = connection }
            if isCancelled { connection.shutdown() }
            defer { current.withLock { $0 = nil } }
            do {
                let outcome = try exchange(
                    on: connection, reused: pipeline.reused, sent: true, carry: pipeline.carry, moreAhead: pipeline.unanswered > 1, path: path,
                    part: &part, buffer: buffer, received: &received)
                if outcome.keepAlive { pipeline.answered(leftover: outcome.leftover) } else { pipeline.reset() }
                return outcome.outcome
            } catch is StaleConnection {
                pipeline.reset()  // then as any request, on a connection of the pool
            } catch {
                pipeline.reset()
                throw error
            }
        }
        pipelined = nil
        while true {
            let checkout: (connection: TCPConnection, reused: Bool)
            do {
                checkout = try pool.checkout(address, connectTimeout: configuration.connectTimeout)
            } catch {
                throw Retryable(error: TransferError(.connectionFailed, "cannot connect to \(address)", underlying: error))
            }
            current.withLock { $0 = checkout.connection }
            if isCancelled { checkout.connection.shutdown() }
            defer { current.withLock { $0 = nil } }
            do {
                let outcome = try exchange(
                    on: checkout.connection, reused: checkout.reused, sent: false, carry: [], moreAhead: false, path: path, part: &part, buffer: buffer,
                    received: &received)
                if outcome.keepAlive { pool.checkin(checkout.connection, for: address) } else { checkout.connection.close() }
                return outcome.outcome
            } catch is StaleConnection {
                checkout.connection.close()
                continue
            } catch {
                checkout.connection.close()
                throw error
            }
        }
    }

    /// A GET of the file, from `range.first` when resuming with the bytes' validator.
    private func requestHead(path: String, range: (first: Int64, etag: String)?) -> [UInt8] {
        var headers: HTTPHeaders = ["Host": request.endpoint.hostHeader]
        headers.add(name: "Authorization", value: request.endpoint.authorization)
        if let range {
            headers.add(name: "Range", value: HTTPByteRange.from(first: range.first).headerValue)
            headers.add(name: "If-Range", value: range.etag)
        }
        return HTTPRequestHead(method: "GET", target: path, headers: headers).serialized()
    }

    /// One response: the request is sent unless `sent` (then it was sent ahead for an empty
    /// partial file); `carry` are bytes already read of it; with `moreAhead` more responses
    /// follow on the connection, and bytes read past this one are returned as `leftover`.
    private func exchange(
        on connection: TCPConnection, reused: Bool, sent: Bool, carry: [UInt8], moreAhead: Bool, path: String, part: inout some DownloadBody,
        buffer: UnsafeMutableRawBufferPointer, received: inout Int64
    ) throws -> (outcome: Outcome, keepAlive: Bool, leftover: [UInt8]) {
        var range: (first: Int64, etag: String)?
        if part.length > 0, let validator = part.validator {
            range = (part.length, validator.etag)
        } else if part.length > 0 {
            try part.restart()
        }
        let head = sent ? [] : requestHead(path: path, range: range)
        let timeout = configuration.ioTimeout

        // Send the request and read the response head into the buffer.
        var filled = 0
        if !carry.isEmpty, let base = buffer.baseAddress {
            carry.withUnsafeBytes { base.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            filled = carry.count
        }
        // Read no further than the head and the expected body, so that little of a pipelined next
        // response has to be kept aside.
        // Saturating: a lying device may list a size near Int64.max (docs/reliability.md).
        let expectedEnd = request.expectedSize.map {
            let (end, overflow) = max(0, $0 - part.length).addingReportingOverflow(FileDownloadJob.headAllowance)
            return overflow ? buffer.count : Int(clamping: end)
        } ?? buffer.count
        let headLength: Int
        // The whole head must come within `responseHeadTimeout` (a peer may accept and never answer).
        let headDeadline = ContinuousClock.now + configuration.responseHeadTimeout
        do {
            if !sent { try connection.write(head, timeout: timeout) }
            while true {
                if filled > 0, let length = try HTTPHeadParser.headLength(in: UnsafeRawBufferPointer(rebasing: buffer[0..<filled])) {
                    headLength = length
                    break
                }
                let end = filled < expectedEnd ? min(expectedEnd, buffer.count) : buffer.count
                let left = headDeadline - ContinuousClock.now
                guard left > .zero else { throw HeadTimeout() }
                let count: Int
                do {
                    count = try connection.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled..<end]), timeout: min(timeout, left))
                } catch let error as NetError where error.code == .timedOut && ContinuousClock.now >= headDeadline {
                    throw HeadTimeout()
                }
                if count == 0 {
                    if reused && filled == 0 && !isCancelled { throw StaleConnection() }
                    throw NetError(.connectionReset, "the device closed the connection before a complete response head")
                }
                filled += count
            }
        } catch let error as NetError {
            if reused && filled == 0 && error.code == .connectionReset && !isCancelled { throw StaleConnection() }
            throw Retryable(error: TransferError(.connectionLost, "no response from the device", underlying: error))
        } catch is HeadTimeout {
            throw Retryable(error: TransferError(
                .responseHeadTimeout, "no whole response head for \(request.localName) within \(configuration.responseHeadTimeout) (\(filled) bytes of it came)"))
        } catch let error as HTTPError {
            throw TransferError(.invalidResponse, "malformed response head", underlying: error)
        }
        let response: HTTPResponseHead
        let contentLength: Int64
        do {
            response = try HTTPResponseHead(parsing: UnsafeRawBufferPointer(rebasing: buffer[0..<headLength]))
            guard response.headers["Transfer-Encoding"] == nil else {
                throw HTTPError(.unsupportedTransferEncoding, "Transfer-Encoding is not supported")
            }
            guard let length = try response.headers.contentLength() else {
                throw HTTPError(.invalidContentLength, "the response has no Content-Length")
            }
            contentLength = length
        } catch {
            throw TransferError(.invalidResponse, "invalid response to GET \(path)", underlying: error)
        }
        // Bytes past this response's body belong to the next pipelined response.
        var leftover: [UInt8] = []
        if Int64(filled - headLength) > contentLength {
            guard moreAhead else { throw TransferError(.invalidResponse, "the device sent more than Content-Length") }
            let end = headLength + Int(contentLength)
            leftover = Array(UnsafeRawBufferPointer(rebasing: buffer[end..<filled]))
            filled = end
        }

        // Decide where the body goes.
        let total: Int64
        switch response.status {
        case 200:
            if part.length > 0 {
                logger.log(.info, "transfer", "\(request.localName): the device sent the whole file (it changed); starting over")
                try part.restart()
            }
            total = contentLength
        case 206:
            guard let value = response.headers["Content-Range"], case .bytes(let first, let last, let size?) = try? HTTPContentRange(parsing: value),
                first == part.length, last - first + 1 == contentLength, last + 1 == size
            else {
                throw TransferError(.invalidResponse, "206 with a Content-Range that does not continue byte \(part.length)")
            }
            total = size
        case 416 where part.length > 0:
            if let value = response.headers["Content-Range"], case .unsatisfied(let size) = try? HTTPContentRange(parsing: value), size == part.length {
                // The partial file already holds the whole file.
                return (.complete, response.keepAlive && contentLength == 0, leftover)
            }
            try part.restart()
            return (.again, response.keepAlive && contentLength == 0, leftover)
        case 500...599:
            throw Retryable(error: TransferError(.httpStatus, "the device answered \(response.status) \(response.reason)", httpStatus: response.status))
        default:
            throw TransferError(.httpStatus, "the device answered \(response.status) \(response.reason) for \(path)", httpStatus: response.status)
        }
        if let expected = request.expectedSize, total != expected {
            throw TransferError(.sizeMismatch, "\(request.localName): the device serves \(total) bytes, expected \(expected)")
        }
        if let etag = response.headers["ETag"] {
            part.validator = PartialFile.Validator(url: part.url, etag: etag, size: total)
        } else {
            part.validator = nil
        }
        // The resume record first, so that any end of this process leaves a resumable file.
        try part.recordValidator(size: total)

        // Stream the body into the partial file. `pending` bytes at the start of the buffer are
        // received but not yet written; writes happen in whole blocks (see PartialFile).
        var pending = filled - headLength
        if pending > 0, let base = buffer.baseAddress {
            memmove(base, base + headLength, pending)  // block-aligned memory for direct writes
            report(pending, part: part, pending: pending, total: total, received: &received, buffer: buffer)
        }
        var remaining = contentLength - Int64(pending)
        part.useDirectWrites(forComing: contentLength)
        let flushThreshold = buffer.count - min(buffer.count / 4, 256 * 1024)
        // The stall detector: each `stallTimeout` window must bring `minimumTransferRate` bytes a
        // second on average, else the connection is given up (a peer that trickles or is silent).
        var stall = StallWindow(configuration)
        do {
            while remaining > 0 {
                guard !isCancelled else { throw cancelledError }
                if pending >= flushThreshold { pending = try flush(pending, of: buffer, into: &part, final: false) }
                let want = Int(min(Int64(buffer.count - pending), remaining))
                let count: Int
                do {
                    count = try connection.read(
                        into: UnsafeMutableRawBufferPointer(rebasing: buffer[pending..<(pending + want)]), timeout: try stall.readTimeout(timeout))
                } catch let error as NetError where error.code == .timedOut && stall.windowEnded {
                    continue  // judged by `readTimeout` at the top of the next round
                }
                guard count > 0 else {
                    throw NetError(.connectionReset, "the connection closed \(remaining) bytes before the end of the body")
                }
                stall.received(count)
                pending += count
                remaining -= Int64(count)
                report(count, part: part, pending: pending, total: total, received: &received, buffer: buffer)
            }
            _ = try flush(pending, of: buffer, into: &part, final: true)
        } catch let stalled as StallWindow.Stalled {
            // Keep what arrived, in whole blocks; the retry resumes after it.
            _ = try flush(pending, of: buffer, into: &part, final: false)
            if isCancelled { throw cancelledError }
            throw Retryable(error: TransferError(
                .stalled, "\(request.localName) stalled at byte \(part.length + Int64(pending)) of \(total): \(stalled.received) bytes in the last \(configuration.stallTimeout)"))
        } catch let error as NetError {
            // Keep what arrived, in whole blocks; the rest comes again with the resume.
            _ = try flush(pending, of: buffer, into: &part, final: false)
            if isCancelled { throw cancelledError }
            throw Retryable(error: TransferError(.connectionLost, "the connection dropped at byte \(part.length) of \(total)", underlying: error))
        } catch let error as TransferError where error.code == .cancelled {
            _ = try flush(pending, of: buffer, into: &part, final: false)
            throw error
        }
        return (.complete, response.keepAlive, leftover)
    }

    /// Writes the pending bytes at the start of the buffer (whole blocks unless `final`) and moves
    /// what is left to the front; returns the bytes still pending.
    private func flush(_ pending: Int, of buffer: UnsafeMutableRawBufferPointer, into part: inout some DownloadBody, final: Bool) throws -> Int {
        guard pending > 0 else { return 0 }
        let written = try part.append(from: buffer, count: pending, final: final)
        let left = pending - written
        if left > 0, let base = buffer.baseAddress { memmove(base, base + written, left) }
        return left
    }

    private func report(
        _ count: Int, part: some DownloadBody, pending: Int, total: Int64, received: inout Int64, buffer: UnsafeMutableRawBufferPointer
    ) {
        received += Int64(count)
        let chunk = request.reportsChunkData ? Data(UnsafeRawBufferPointer(rebasing: buffer[(pending - count)..<pending])) : nil
        progress?(DownloadProgress(bytesTransferred: part.length + Int64(pending), totalBytes: total, chunkBytes: count, chunk: chunk))
    }
}
