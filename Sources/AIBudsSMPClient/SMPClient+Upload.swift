import AIBudsDigest
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
    ///   - window: chunks in flight (1 is stop-and-wait); nil uses the client's window.
    ///   - verify: whether to compare the device's SHA-256 of the file at the end.
    ///   - progress: called as the device acknowledges bytes, on the calling task.
    @discardableResult
    public func uploadFile(
        path: String, data: Data, window: Int? = nil, verify: Bool = true,
        progress: ((SMPTransferProgress) -> Void)? = nil
    ) async throws(SMPError) -> SMPUploadResult {
        let window = min(max(window ?? configuration.window, 1), 128)
        let size = UInt64(data.count)
        if !isMTUKnown {
            do {
                try await negotiateMTU()
            } catch where error.code == .cancelled || error.code == .closed {
                throw error
            } catch {
                // Asked once: a device that does not answer is not asked again on every upload.
                setMTU(mtu)
                logger.log(.info, "smp", "the device does not tell its MTU (\(error)); uploading with \(self.mtu)-byte packets")
            }
        }
        let mtu = self.mtu
        func chunk(at offset: UInt64) throws(SMPError) -> FileUploadRequest {
            let length = try Self.uploadChunkLength(path: path, offset: offset, remaining: size - offset,
                                                    totalSize: size, mtu: mtu)
            let start = data.startIndex + Int(offset)
            return FileUploadRequest(off: offset, data: data[start..<start + length], name: path,
                                     len: offset == 0 ? size : nil)
        }

        var acknowledged = try await send(chunk(at: 0)).off
        var requests = 1
        progress?(SMPTransferProgress(completed: min(acknowledged, size), total: size))
        do {
            try await withThrowingTaskGroup(of: (UInt64, Int, UInt64).self) { group in
                var next = acknowledged
                var generation = 0
                var inFlight = 0
                var rewoundAt: UInt64?
                var fruitlessRewinds = 0
                while acknowledged < size {
                    // Chunks go on the link in offset order from this task (the device takes them
                    // only in order); responses are collected by child tasks.
                    while inFlight < window, next < size {
                        let request = try chunk(at: next)
                        let pending = try await start(request)
                        let sentGeneration = generation
                        group.addTask { (request.off, sentGeneration, try await pending.response().off) }
                        next += UInt64(request.data.count)
                        inFlight += 1
                        requests += 1
                    }
                    guard let (offset, sentGeneration, expected) = try await group.next() else { break }
                    inFlight -= 1
                    guard expected <= size else {
                        throw SMPError(.malformedResponse, "the device expects offset \(expected) of \(path), past its \(size) bytes")
                    }
                    acknowledged = max(acknowledged, expected)
                    if expected <= offset, sentGeneration == generation, next > acknowledged {
                        // The chunk came before the one the device expects: resend from there.
                        fruitlessRewinds = rewoundAt == acknowledged ? fruitlessRewinds + 1 : 0
                        guard fruitlessRewinds < 8 else {
                            throw SMPError(.malformedResponse, "the device keeps refusing \(path) at offset \(acknowledged)")
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
            throw SMPError(.transport, "the upload of \(path) failed", underlying: error)
        }
        guard acknowledged == size else {
            throw SMPError(.malformedResponse, "the upload of \(path) stopped at \(acknowledged) of \(size) bytes")
        }

        let digest = SHA256.hash(data)
        let verified = verify ? try await verifySHA256(path: path, range: 0..<size, expected: digest) : false
        return SMPUploadResult(size: size, sha256: digest, verified: verified, requests: requests)
    }

    /// The most bytes of file data an upload request at `offset` can carry within `mtu`.
    static func uploadChunkLength(
        path: String, offset: UInt64, remaining: UInt64, totalSize: UInt64, mtu: Int
    ) throws(SMPError) -> Int {
        let empty = FileUploadRequest(off: offset, data: Data(), name: path, len: offset == 0 ? totalSize : nil)
        let overhead: Int
        do {
            overhead = SMPHeader.size + (try CBOREncoder().encode(empty).count)
        } catch {
            throw SMPError(.invalidRequest, "cannot encode an upload request for \(path)", underlying: error)
        }
        // A byte string's head grows with its length: 1 byte up to 23, 2 to 255, 3 to 65,535, 5 beyond.
        func headGrowth(_ count: Int) -> Int { count < 24 ? 0 : count < 256 ? 1 : count < 65_536 ? 2 : 4 }
        var length = Int(clamping: min(remaining, UInt64(max(mtu - overhead, 0))))
        while length > 0, overhead + headGrowth(length) + length > mtu { length -= 1 }
        guard length > 0 || remaining == 0 else {
            throw SMPError(.invalidRequest, "an upload request for \(path) does not fit the MTU of \(mtu) bytes")
        }
        return length
    }
}
