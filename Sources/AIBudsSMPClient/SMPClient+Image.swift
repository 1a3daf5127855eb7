import AIBudsDigest
import AIBudsWire
import Foundation

/// The outcome of an Image group upload: size, where it resumed, the device's SHA-256 match.
public struct SMPImageUploadResult: Sendable, Equatable {
    /// The file size.
    public var size: UInt64
    /// Where this upload (its last attempt, after drops) started: past 0 when the device still
    /// had the first bytes of the same file (matched by its SHA-256) from an interrupted upload.
    public var resumedFrom: UInt64
    /// Whether the device confirmed that the received bytes have the file's SHA-256 (`match`).
    public var matched: Bool
    /// How many upload requests were sent (not counting retransmissions).
    public var requests: Int
    /// How many drops the upload went on after (``SMPFirmwareUpdater``); 0 for a single attempt.
    public var interruptions = 0
}

extension SMPClient {
    /// Uploads an MCUboot image file to the secondary slot of `image` with the Image group,
    /// pipelined like a File upload (``uploadFile(path:data:window:verify:progress:)``).
    ///
    /// The first chunk names the upload by the file's SHA-256, so a device that still holds the
    /// beginning of the same upload answers with its offset and the upload goes on from there.
    ///
    /// - Parameters:
    ///   - data: the signed MCUboot image file's bytes.
    ///   - image: the image number (0 the main firmware; 1 a second processor, such as the glasses' camera module).
    ///   - upgrade: asks the device to refuse an image not newer than the running one.
    ///   - window: chunks in flight; nil uses the client's window.
    ///   - progress: called as the device acknowledges bytes, on the calling task.
    /// - Throws: `SMPError`; a device error carries Zephyr's `IMG_MGMT_ERR_*` code (group 1).
    @discardableResult
    public func uploadImage(
        _ data: Data, image: Int = 0, upgrade: Bool = false, window: Int? = nil,
        progress: ((SMPTransferProgress) -> Void)? = nil
    ) async throws(SMPError) -> SMPImageUploadResult {
        let size = UInt64(data.count)
        guard size > 0 else { throw SMPError(.invalidRequest, "an empty image cannot be uploaded") }
        let sha = Data(SHA256.hash(data))
        try await learnMTUForUpload()
        let mtu = self.mtu
        let label = "image \(image)"
        var firstAnswer: UInt64?
        var firstLength: UInt64 = 0
        let (last, requests) = try await pipelinedUpload(
            label: label, size: size, window: window,
            progress: { value in
                if firstAnswer == nil { firstAnswer = value.completed }
                progress?(value)
            }
        ) { offset throws(SMPError) in
            let first = offset == 0
            let empty = ImageUploadRequest(
                image: first ? UInt64(image) : nil, len: first ? size : nil, off: offset, sha: first ? sha : nil, data: Data(),
                upgrade: first && upgrade ? true : nil)
            var request = empty
            let length = try Self.uploadChunkLength(empty, label: label, remaining: size - offset, mtu: mtu)
            let start = data.startIndex + Int(offset)
            request.data = data[start..<start + length]
            if first { firstLength = UInt64(length) }
            return request
        }
        // A fresh upload stores the first chunk and answers its end; a resumed one answers where
        // the earlier upload stopped.
        let resumedFrom = firstAnswer.map { $0 == firstLength ? 0 : $0 } ?? 0
        return SMPImageUploadResult(size: size, resumedFrom: resumedFrom, matched: last.match ?? false, requests: requests)
    }

    /// Image `state`: every occupied slot of every image.
    public func imageState() async throws(SMPError) -> [ImageSlotState] {
        try await send(ImageStateReadRequest()).images
    }

    /// Marks the image with `hash` (from its TLV area) to boot once at the next reset; it reverts
    /// unless confirmed after that boot. Returns the new slot states.
    @discardableResult
    public func testImage(hash: Data) async throws(SMPError) -> [ImageSlotState] {
        try await send(ImageStateWriteRequest(hash: hash, confirm: false)).images
    }

    /// Confirms the image with `hash` (nil: the running one), so that it stays after resets.
    @discardableResult
    public func confirmImage(hash: Data? = nil) async throws(SMPError) -> [ImageSlotState] {
        try await send(ImageStateWriteRequest(hash: hash, confirm: true)).images
    }

    /// Erases the secondary slot of `image` (Zephyr's slot number `2 × image + 1`).
    public func eraseImage(image: Int = 0) async throws(SMPError) {
        _ = try await send(ImageEraseRequest(slot: UInt64(2 * image + 1)))
    }

    /// Image `slot info`: each image's slots and the largest image each takes.
    public func imageSlotInfo() async throws(SMPError) -> [ImageSlotInfo] {
        try await send(ImageSlotInfoRequest()).images
    }

    /// OS `reset`: the device answers, then restarts (and its bootloader swaps or reverts images).
    public func reset() async throws(SMPError) {
        _ = try await send(OSResetRequest())
    }
}
