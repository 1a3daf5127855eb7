import AIBudsDigest
import AIBudsWire
import Foundation

/// How far a File-group transfer has come.
public struct SMPTransferProgress: Sendable, Equatable {
    /// Bytes of the file done so far (for a resumed download, counted from the file's start).
    public var completed: UInt64
    /// The file size.
    public var total: UInt64

    /// Reports that `completed` of the file's `total` bytes have arrived.
    public init(completed: UInt64, total: UInt64) {
        self.completed = completed
        self.total = total
    }
}

/// What a File download did.
public struct SMPDownloadResult: Sendable, Equatable {
    /// The file size the device reported.
    public var size: UInt64
    /// The offset this download started at (0 unless resumed).
    public var startOffset: UInt64
    /// The SHA-256 of the bytes `startOffset..<size` as received.
    public var sha256: [UInt8]
    /// Whether the device's SHA-256 of the same range matched; false when verification was not
    /// asked for or the device offers no SHA-256.
    public var verified: Bool
    /// How many download requests were sent (not counting retransmissions).
    public var requests: Int
}

extension SMPClient {
    /// Downloads a file with the File group, keeping `window` requests in flight, and hands its
    /// bytes to `sink` in order.
    ///
    /// The first response tells the file size (for a resumed download, File status does) and the
    /// chunk size the device uses; later requests ask for successive offsets, and ranges a response
    /// leaves out are asked for again. Lost requests and responses are retransmitted by the client.
    /// At the end the device's SHA-256 of the downloaded range is compared with the bytes received.
    ///
    /// - Parameters:
    ///   - path: the device path, `/media/<name>`.
    ///   - offset: where to start (resume); the bytes before it are neither requested nor verified.
    ///   - window: requests in flight (1 is stop-and-wait); nil uses the client's window.
    ///   - verify: whether to check the device's SHA-256 of the range at the end.
    ///   - progress: called after each write, on the calling task.
    ///   - sink: receives the bytes in file order; an error it throws ends the download.
    /// - Throws: `SMPError`; `.verificationFailed` when the hash differs, `.localIO` when the sink failed.
    @discardableResult
    public func downloadFile(
        path: String, from offset: UInt64 = 0, window: Int? = nil, verify: Bool = true,
        progress: ((SMPTransferProgress) -> Void)? = nil,
        sink: (Data) async throws -> Void
    ) async throws(SMPError) -> SMPDownloadResult {
        let window = min(max(window ?? configuration.window, 1), 128)
        let size: UInt64
        let first: FileDownloadResponse
        if offset == 0 {
            first = try await send(FileDownloadRequest(off: 0, name: path))
            guard let length = first.len else {
                throw SMPError(.malformedResponse, "the first download response for \(path) has no len")
            }
            size = length
        } else {
            size = try await send(FileStatusRequest(name: path)).len
            guard offset <= size else {
                throw SMPError(.invalidRequest, "cannot resume \(path) at \(offset): the file has \(size) bytes")
            }
            first = offset == size
                ? FileDownloadResponse(off: offset, data: Data())
                : try await send(FileDownloadRequest(off: offset, name: path))
        }
        guard first.off == offset, offset == size || !first.data.isEmpty else {
            throw SMPError(.malformedResponse, "the download response for \(path) at \(offset) is empty or misplaced")
        }

        var plan = SMPDownloadPlan(size: size, start: offset, first: first.data,
                                   maxAhead: UInt64(max(window * 4, 64) * max(first.data.count, 64)))
        let hasher = SHA256()
        var requests = offset == size ? 0 : 1
        func write(_ plan: inout SMPDownloadPlan) async throws(SMPError) {
            for chunk in plan.takeWritable() {
                hasher.update(chunk)
                do {
                    try await sink(chunk)
                } catch {
                    throw SMPError(.localIO, "cannot store the bytes of \(path)", underlying: error)
                }
            }
            progress?(SMPTransferProgress(completed: plan.written, total: size))
        }
        try await write(&plan)

        do {
            try await withThrowingTaskGroup(of: (SMPDownloadPlan.Request, FileDownloadResponse).self) { group in
                var inFlight = 0
                while true {
                    // Requests go on the link in offset order from this task; responses are
                    // collected by child tasks in whatever order they come.
                    while inFlight < window, let request = plan.nextRequest() {
                        let pending = try await start(FileDownloadRequest(off: request.offset, name: path))
                        group.addTask { (request, try await pending.response()) }
                        inFlight += 1
                        requests += 1
                    }
                    guard let (request, response) = try await group.next() else { break }
                    inFlight -= 1
                    do {
                        try plan.receive(request, offset: response.off, data: response.data)
                    } catch {
                        throw SMPError(.malformedResponse, "bad download response for \(path): \(error)")
                    }
                    try await write(&plan)
                }
            }
        } catch let error as SMPError {
            throw error
        } catch {
            throw SMPError(.transport, "the download of \(path) failed", underlying: error)
        }
        guard plan.isComplete else {
            throw SMPError(.malformedResponse, "the download of \(path) stopped at \(plan.written) of \(size) bytes")
        }

        let digest = hasher.finalize()
        var verified = false
        if verify {
            verified = try await verifySHA256(path: path, range: offset..<size, expected: digest)
        }
        return SMPDownloadResult(size: size, startOffset: offset, sha256: digest, verified: verified, requests: requests)
    }

    /// Downloads a file into `handle`, writing at `offset` onwards (pass the handle's current length
    /// to resume a partial file); see `downloadFile(path:from:window:verify:progress:sink:)`.
    @discardableResult
    public func downloadFile(
        path: String, to handle: FileHandle, from offset: UInt64 = 0, window: Int? = nil, verify: Bool = true,
        progress: ((SMPTransferProgress) -> Void)? = nil
    ) async throws(SMPError) -> SMPDownloadResult {
        do {
            try handle.seek(toOffset: offset)
        } catch {
            throw SMPError(.localIO, "cannot seek the destination of \(path) to \(offset)", underlying: error)
        }
        return try await downloadFile(path: path, from: offset, window: window, verify: verify, progress: progress) {
            try handle.write(contentsOf: $0)
        }
    }

    /// Compares the device's SHA-256 of `range` of `path` with `expected`; false when the device
    /// has no SHA-256, throws `verificationFailed` on a mismatch. An empty range at the end of the
    /// file (a resumed download that had everything) needs no comparison.
    func verifySHA256(path: String, range: Range<UInt64>, expected: [UInt8]) async throws(SMPError) -> Bool {
        guard !range.isEmpty || range.lowerBound == 0 else { return true }  // nothing past the end to compare
        let whole = range.lowerBound == 0
        let response: FileHashResponse
        do {
            response = try await send(FileHashRequest(
                name: path, type: "sha256", off: whole ? nil : range.lowerBound,
                len: whole ? nil : UInt64(range.count)))
        } catch let error where error.deviceError?.mgmtError == .notSupported {
            return false
        }
        guard response.type == "sha256", let digest = response.output.data else {
            throw SMPError(.malformedResponse, "the device answered a sha256 request for \(path) with \(response.type)")
        }
        guard response.len == UInt64(range.count), digest == Data(expected) else {
            throw SMPError(.verificationFailed, """
                \(path) bytes \(range.lowerBound)..<\(range.upperBound): the device reports \(response.len) bytes \
                with SHA-256 \(digest.hexString), received \(range.count) bytes with SHA-256 \(expected.hexString)
                """)
        }
        return true
    }
}
