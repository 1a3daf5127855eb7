import AIBudsDigest
import AIBudsCBOR
import AIBudsWire
import Foundation

/// What a File upload did.
public struct SMPUploadResult: Sendable, Equatable {
    /// The bytes uploaded.
    public var size: UInt64
    /// The SHA-256 of the bytes.
    public var sha256: [UInt8]
    /// Whether the device's SHA-256 of the file matched; false when verification was not asked
    /// for or the device offers no SHA-256.
    public var verified: Bool
    /// How many upload requests were sent (not counting retransmissions).
    public var requests: Int
}

/// A request carrying one chunk of an upload (File `upload`, Image `upload`), answered with the
/// next offset the device expects.
protocol SMPUploadChunk: SMPRequest where Response: SMPUploadAcknowledgement {
    /// The offset of `data`.
    var off: UInt64 { get }
    /// The chunk's bytes.
    var data: Data { get }
}

/// An answer to an upload chunk.
protocol SMPUploadAcknowledgement: Sendable {
    /// The next offset the device expects.
    var off: UInt64 { get }
}

extension FileUploadRequest: SMPUploadChunk {}
extension FileUploadResponse: SMPUploadAcknowledgement {}
extension ImageUploadRequest: SMPUploadChunk {}
extension ImageUploadResponse: SMPUploadAcknowledgement {}

extension SMPClient {
    /// Uploads `data` as `path` with the File group: the first chunk (with `len`) creates the file,
    /// then up to `window` chunks are in flight, each as large as the MTU allows.
    ///
    /// The device accepts a chunk only at the offset it expects and answers every chunk with that
    /// offset; when chunks arrive out of order the upload goes back to it (go-back-N). Unless the
    /// MTU is known already, the client first asks the device for it (`negotiateMTU`); a device
    /// that cannot tell leaves the transport's MTU in use.
    ///
    /// - Parameters:
    ///   - path: the file's path on the device (`/media/NAME` on this project's devices).
    ///   - data: the file's bytes.
    ///   - window: chunks in flight (1 is stop-and-wait); nil uses the client's window.
    ///   - verify: whether to compare the device's SHA-256 of the file at the end.
    ///   - progress: called as the device acknowledges bytes, on the calling task.
    @discardableResult
    public func uploadFile(
        path: String, data: Data, window: Int? = nil, verify: Bool = true,
        progress: ((SMPTransferProgress) -> Void)? = nil
    ) async throws(SMPError) -> SMPUploadResult {
        let size = UInt64(data.count)
        try await learnMTUForUpload()
        let mtu = self.mtu
        let (_, requests) = try await pipelinedUpload(label: path, size: size, window: window, progress: progress) {
            offset throws(SMPError) in
            let empty = FileUploadRequest(off: offset, data: Data(), name: path, len: offset == 0 ? size : nil)
            let length = try Self.uploadChunkLength(empty, label: path, remaining: size - offset, mtu: mtu)
            let start = data.startIndex + Int(offset)
            return FileUploadRequest(off: offset, data: data[start..<start + length], name: path, len: offset == 0 ? size : nil)
        }
        let digest = SHA256.hash(data)
        let verified = verify ? try await verifySHA256(path: path, range: 0..<size, expected: digest) : false
        return SMPUploadResult(size: size, sha256: digest, verified: verified, requests: requests)
    }

    /// Asks the device for its MTU before an upload unless it is known; a device that cannot tell
    /// is not asked again.
    func learnMTUForUpload() async throws(SMPError) {
        guard !isMTUKnown else { return }
        do {
            try await negotiateMTU()
        } catch where error.code == .cancelled || error.code == .closed {
            throw error
        } catch {
            setMTU(mtu)
            logger.log(.info, "smp", "the device does not tell its MTU (\(error)); uploading with \(self.mtu)-byte packets")
        }
    }

    /// Sends the chunks `chunk(at:)` builds until the device has all `size` bytes: the first at 0
    /// alone (the device answers it with where to go on, which is past 0 when it resumes), then up
    /// to `window` in flight, in offset order from this task, go-back-N to the device's offset when
    /// chunks arrive out of order. Returns the device's answer to the chunk that completed the
    /// upload and the number of requests sent.
    func pipelinedUpload<Request: SMPUploadChunk>(
        label: String, size: UInt64, window: Int?, progress: ((SMPTransferProgress) -> Void)?,
        chunk: (UInt64) throws(SMPError) -> Request
    ) async throws(SMPError) -> (last: Request.Response, requests: Int) {
        let window = min(max(window ?? configuration.window, 1), 128)
        var last = try await send(chunk(0))
        var acknowledged = last.off
        var requests = 1
        guard acknowledged <= size else {
            throw SMPError(.malformedResponse, "the device expects offset \(acknowledged) of \(label), past its \(size) bytes")
        }
        progress?(SMPTransferProgress(completed: acknowledged, total: size))
        do {
            try await withThrowingTaskGroup(of: (UInt64, Int, Request.Response).self) { group in
                var next = acknowledged
                var generation = 0
                var inFlight = 0
                var rewoundAt: UInt64?
                var fruitlessRewinds = 0
                while acknowledged < size {
                    while inFlight < window, next < size {
                        let request = try chunk(next)
                        let pending = try await start(request)
                        let sentGeneration = generation
                        group.addTask { (request.off, sentGeneration, try await pending.response()) }
                        next += UInt64(request.data.count)
                        inFlight += 1
                        requests += 1
                    }
                    guard let (offset, sentGeneration, response) = try await group.next() else { break }
                    inFlight -= 1
                    let expected = response.off
                    guard expected <= size else {
                        throw SMPError(.malformedResponse, "the device expects offset \(expected) of \(label), past its \(size) bytes")
                    }
                    if expected >= acknowledged { last = response }
                    acknowledged = max(acknowledged, expected)
                    if expected <= offset, sentGeneration == generation, next > acknowledged {
                        // The chunk came before the one the device expects: resend from there.
                        fruitlessRewinds = rewoundAt == acknowledged ? fruitlessRewinds + 1 : 0
                        guard fruitlessRewinds < 8 else {
                            throw SMPError(.malformedResponse, "the device keeps refusing \(label) at offset \(acknowledged)")
                        }
                        rewoundAt = acknowledged
                        generation += 1
                        next = acknowledged
                    }
                    progress?(SMPTransferProgress(completed: acknowledged, total: size))
                }
                group.cancelAll()
            }
        } catch let error as SMPError {
            throw error
        } catch {
            throw SMPError(.transport, "the upload of \(label) failed", underlying: error)
        }
        guard acknowledged == size else {
            throw SMPError(.malformedResponse, "the upload of \(label) stopped at \(acknowledged) of \(size) bytes")
        }
        return (last, requests)
    }

    /// The most data bytes a chunk like `empty` (the same request with no data) can carry within
    /// `mtu`.
    static func uploadChunkLength(
        _ empty: some Encodable, label: String, remaining: UInt64, mtu: Int
    ) throws(SMPError) -> Int {
        let overhead: Int
        do {
            overhead = SMPHeader.size + (try CBOREncoder().encode(empty).count)
        } catch {
            throw SMPError(.invalidRequest, "cannot encode an upload request for \(label)", underlying: error)
        }
        // A byte string's head grows with its length: 1 byte up to 23, 2 to 255, 3 to 65,535, 5 beyond.
        func headGrowth(_ count: Int) -> Int { count < 24 ? 0 : count < 256 ? 1 : count < 65_536 ? 2 : 4 }
        var length = Int(clamping: min(remaining, UInt64(max(mtu - overhead, 0))))
        while length > 0, overhead + headGrowth(length) + length > mtu { length -= 1 }
        guard length > 0 || remaining == 0 else {
            throw SMPError(.invalidRequest, "an upload request for \(label) does not fit the MTU of \(mtu) bytes")
        }
        return length
    }
}
