import AIBuds
import AIBudsImport
import AIBudsDigest
import AIBudsSync
import AIBudsTransfer
import Foundation

/// One object of a station written as its bytes arrive, in order: the ``DownloadSink`` of a file
/// streamed from a device (no local copy), and the way a staged local file is stored too.
///
/// - A file of at most one part goes in one conditional `PUT` at the end, whose
///   `x-amz-checksum-sha256` is the device's SHA-256: the store refuses other bytes.
/// - A larger file becomes a multipart upload: each full part is sent (with its own
///   `x-amz-checksum-crc32`, see ``partChecksumAlgorithm``) on a thread of its own while the next
///   part fills, so at most two parts of a file are in memory (and at most the store's
///   `maximumBufferedParts` over all files, ``PartBuffer``); the last part and the conditional
///   `Complete` (`If-None-Match: *`) come once the whole file was checked against the device's
///   SHA-256.
/// - After a part, once the store's ``S3MediaStore/stateInterval`` passed since the upload began
///   or its state was last saved, the upload's state is written beside the objects
///   (`<device>/.aibuds/uploads/`): the upload id, the parts, the device's ETag and the SHA-256
///   state after them; an import that stops (``suspend()``) saves it with every stored part. An
///   upload killed before its first save is not resumed: it stays in progress in the store (as
///   `aws s3 cp`'s do) until a lifecycle rule aborts it. A later import (another process too)
///   continues the same upload from there, asking the device only for the rest (`Range` +
///   `If-Range`). A file of one part never has a state.
///
/// Called by one thread at a time (the engine's worker for the file); the part in flight is the
/// only work on another thread, handed over through a lock.
final class S3ObjectUpload: DownloadSink, @unchecked Sendable {
    private let store: S3MediaStore
    /// The object's key, and where its upload state is kept.
    let key: String
    private let stateKey: String
    /// The device's SHA-256 of the bytes, stored as `x-amz-meta-sha256`.
    private let sha256: [UInt8]
    /// The device and file name of the ledger entry written once stored; nil for a companion.
    private let ledger: (deviceID: String, name: String)?
    /// The device whose places in the station's part budget this upload takes.
    private let device: String
    /// The size the device lists for the file.
    private let expectedSize: UInt64

    private var hasher = SHA256()
    /// The part being filled, and the offset of its first byte.
    private var part: PartBuffer
    private var partStart: Int64 = 0
    /// Parts the store has, in order.
    private var parts: [UploadedPart] = []
    private var uploadID: String?
    private var etag: String?
    private var size: Int64 = -1
    /// Whether upload state may be stored under `stateKey`.
    private var hasState = false
    /// When the upload state was last saved.
    private var stateSaved: ContinuousClock.Instant?
    /// The digest's state after the stored `parts` (nil before the first).
    private var partsMidstate: SHA256.Midstate?
    /// The part being sent, if any, and the digest's state after it.
    private var inFlight: (done: DispatchSemaphore, outcome: Locked<Result<UploadedPart, any Error>?>, midstate: SHA256.Midstate?)?

    /// The upload of the `size` bytes with SHA-256 `sha256` to `key`, its state kept at `stateKey`.
    init(
        store: S3MediaStore, key: String, stateKey: String, sha256: [UInt8], size: UInt64, device: String,
        ledger: (deviceID: String, name: String)?
    ) {
        self.store = store
        expectedSize = size
        self.key = key
        self.stateKey = stateKey
        self.sha256 = sha256
        self.ledger = ledger
        self.device = device
        part = PartBuffer(budget: store.partBudget, device: device)
    }

    private var client: S3Client { store.client }
    private var bucket: String { store.location.bucket }
    private var partSize: Int { store.partSize }
    private var uploadQuery: String { "uploadId=" + S3Client.encodeQueryValue(uploadID ?? "") }

    // MARK: DownloadSink

    func resumePoint() throws -> DownloadSinkResume? {
        // A file of one part goes in one PUT and never has a state: no request for it.
        guard expectedSize > UInt64(partSize) else { return nil }
        let saved = try client.send("GET", bucket: bucket, key: stateKey)
        guard saved.status == 200 else {
            guard saved.status == 404 else { throw S3Client.error(saved, "reading the upload state of \(key)") }
            return nil
        }
        hasState = true
        let decoded = try? JSONDecoder().decode(UploadState.self, from: saved.body)
        guard let state = decoded, state.key == key, state.partSize == partSize, state.partChecksum == Self.partChecksumAlgorithm,
            let midstate = state.midstate, let etag = state.etag, state.offset == Int64(state.parts.count) * Int64(partSize),
            state.offset > 0, state.offset < state.size, midstate.byteCount == UInt64(state.offset),
            try storeHasParts(state.parts, of: state.uploadID)
        else {
            // Unusable (another layout, lost parts, an upload that is gone): start afresh.
            if let decoded {
                _ = try? client.send("DELETE", bucket: bucket, key: key, query: "uploadId=" + S3Client.encodeQueryValue(decoded.uploadID))
            }
            return nil
        }
        uploadID = state.uploadID
        parts = state.parts
        hasher = SHA256(resuming: midstate)
        partsMidstate = midstate
        stateSaved = .now
        partStart = state.offset
        self.etag = etag
        size = state.size
        return DownloadSinkResume(offset: state.offset, etag: etag, size: state.size)
    }

    func begin(at offset: Int64, etag: String?, size: Int64) throws {
        if offset == 0 {
            // From the start: what was sent belongs to other bytes (part numbers are sent again).
            try? awaitInFlight()
            hasher = SHA256()
            part = PartBuffer(budget: store.partBudget, device: device)
            partStart = 0
            parts = []
            partsMidstate = nil
            stateSaved = nil
            if hasState {
                _ = try? client.send("DELETE", bucket: bucket, key: stateKey)
                hasState = false
            }
        } else if offset != partStart + Int64(part.count) {
            throw S3Error(.http, "the upload of \(key) holds \(partStart + Int64(part.count)) bytes, not \(offset)")
        }
        self.etag = etag
        self.size = size
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws {
        var rest = bytes
        while !rest.isEmpty {
            let take = min(part.room, rest.count)
            let piece = UnsafeRawBufferPointer(rebasing: rest[0..<take])
            hasher.update(piece)
            try part.append(piece)
            rest = UnsafeRawBufferPointer(rebasing: rest[take...])
            guard part.room > 0 || take > 0 else {
                throw S3Error(.integrity, "more bytes of \(key) than the \(size) announced")
            }
            // A full part that is not the file's last goes now; the last waits for the check.
            if part.room == 0, partStart + Int64(partSize) < size {
                let full = replacePart()
                try send(full.data(), through: hasher.midstate)
                partStart += Int64(partSize)
            }
        }
    }

    func digest() -> [UInt8] { hasher.finalize() }

    /// The part filled so far, handed over; an empty one takes its place.
    private func replacePart() -> PartBuffer {
        var next = PartBuffer(budget: store.partBudget, device: device)
        swap(&next, &part)
        return next
    }

    func finish(sha256 digest: [UInt8]) throws -> URL {
        try awaitInFlight()
        guard digest == sha256 else {
            discard()
            throw S3Error(.integrity, "the bytes of \(key) do not have the device's SHA-256 \(sha256.hexString); nothing was stored")
        }
        let metadata = ["x-amz-meta-sha256": sha256.hexString]
        if uploadID == nil {
            // One part: the checksum is the device's SHA-256 itself.
            var headers = metadata
            headers["If-None-Match"] = "*"
            headers["x-amz-checksum-sha256"] = Data(sha256).base64EncodedString()
            do {
                _ = try store.withSlot {
                    try client.expectSuccess("PUT", bucket: bucket, key: key, headers: headers, body: replacePart().data(), payload: .sha256(sha256))
                }
            } catch let error as S3Error where error.kind == .preconditionFailed {
                try acceptExisting(error)
            }
            return try stored()
        }
        if part.count > 0 || parts.isEmpty {
            parts.append(try upload(replacePart().data(), number: parts.count + 1, query: uploadQuery))
        }
        var xml = "<CompleteMultipartUpload>"
        for part in parts {
            xml += "<Part><PartNumber>\(part.number)</PartNumber><ETag>\(XMLText.escape(part.etag))</ETag>"
                + "<ChecksumCRC32>\(part.checksum)</ChecksumCRC32></Part>"
        }
        xml += "</CompleteMultipartUpload>"
        let completed = try client.send("POST", bucket: bucket, key: key, query: uploadQuery, headers: ["If-None-Match": "*"], body: Data(xml.utf8))
        // A Complete can answer 200 with an error document.
        if !(200..<300).contains(completed.status) || XMLText.first("Code", in: completed.body) != nil {
            let error = S3Client.error(completed, "completing the upload of \(key)")
            guard error.kind == .preconditionFailed else { throw error }
            abort()
            try acceptExisting(error)
        }
        return try stored()
    }

    /// Keeps the upload for a later import: its state is saved now with every stored part (a
    /// stop between two periodic saves loses nothing stored). Without the device's ETag or a
    /// stored part nothing can be resumed: the upload is aborted.
    func suspend() {
        try? awaitInFlight()
        guard let uploadID, let etag, let partsMidstate, !parts.isEmpty else {
            abort()
            return
        }
        do {
            hasState = true
            try save(uploadState(uploadID: uploadID, etag: etag, offset: Int64(parts.count) * Int64(partSize), midstate: partsMidstate, parts: parts))
        } catch {
            // A state that cannot be saved leaves an upload nobody would find: let it go.
            abort()
        }
    }

    func discard() {
        try? awaitInFlight()
        abort()
    }

    // MARK: Parts

    /// Sends a full part on a thread of its own, once the part before it is stored; when the
    /// state is due (``S3MediaStore/stateInterval``), it then says the part is there, with the
    /// digest's state after it.
    private func send(_ bytes: Data, through midstate: SHA256.Midstate?) throws {
        try awaitInFlight()
        try createUploadIfNeeded()
        // Resumable only with the device's validator.
        let saves = etag != nil && stateSaved.map { ContinuousClock.now - $0 >= store.stateInterval } ?? true
        if saves { stateSaved = .now }
        let number = parts.count + 1
        let done = DispatchSemaphore(value: 0)
        let outcome = Locked<Result<UploadedPart, any Error>?>(nil)
        inFlight = (done, outcome, midstate)
        let before = parts
        let state = uploadState(uploadID: uploadID ?? "", etag: etag, offset: partStart + Int64(bytes.count), midstate: midstate, parts: [])
        let query = uploadQuery
        let thread = Thread { [self] in
            let result = Result {
                let sent = try upload(bytes, number: number, query: query)
                if saves {
                    var saved = state
                    saved.parts = before + [sent]
                    try save(saved)
                }
                return sent
            }
            outcome.withLock { $0 = result }
            done.signal()
        }
        thread.name = "aibuds-s3-part"
        thread.start()
        if saves { hasState = true }
    }

    /// What `<device>/.aibuds/uploads/` keeps of this upload with `parts` (`offset` bytes) stored.
    private func uploadState(uploadID: String, etag: String?, offset: Int64, midstate: SHA256.Midstate?, parts: [UploadedPart]) -> UploadState {
        UploadState(
            uploadID: uploadID, key: key, partSize: partSize, partChecksum: Self.partChecksumAlgorithm, etag: etag, size: size,
            offset: offset, midstate: midstate, parts: parts)
    }

    /// Writes the upload's state beside the objects.
    private func save(_ state: UploadState) throws {
        try client.expectSuccess("PUT", bucket: bucket, key: stateKey, body: try JSONEncoder().encode(state))
    }

    /// Waits for the part in flight; throws its failure.
    private func awaitInFlight() throws {
        guard let (done, outcome, midstate) = inFlight else { return }
        done.wait()
        inFlight = nil
        guard let result = outcome.withLock({ $0 }) else { return }
        parts.append(try result.get())
        partsMidstate = midstate
    }

    private func createUploadIfNeeded() throws {
        guard uploadID == nil else { return }
        let created = try client.expectSuccess(
            "POST", bucket: bucket, key: key, query: "uploads=",
            headers: ["x-amz-meta-sha256": sha256.hexString, "x-amz-checksum-algorithm": Self.partChecksumAlgorithm])
        guard let id = XMLText.first("UploadId", in: created.body) else { throw S3Error(.http, "the store gave no upload id for \(key)") }
        uploadID = id
        // The first state comes with a part, an interval from now: an upload that ends sooner
        // costs the store no state to write and delete.
        stateSaved = .now
    }

    /// The checksum each part carries, which the store verifies: CRC-32, as `aws s3 cp` sends.
    /// The whole object is checked against the device's SHA-256 before the `Complete`, so a
    /// part's checksum guards only the way to the store. A SHA-256 per part cost a second pass
    /// over every byte here and in the store: measured on SeaweedFS, 13.9 ms of the server's CPU
    /// per MiB with `x-amz-checksum-sha256` against 12.3 with CRC-32 (docs/architecture.md).
    static let partChecksumAlgorithm = "CRC32"

    /// Sends part `number` of the upload that `query` names (in one of the station's upload slots).
    private func upload(_ bytes: Data, number: Int, query: String) throws -> UploadedPart {
        var crc = CRC32()
        bytes.withUnsafeBytes { crc.update($0) }
        var bigEndian = crc.value.bigEndian
        let checksum = withUnsafeBytes(of: &bigEndian) { Data($0) }.base64EncodedString()
        let response = try store.withSlot {
            try client.expectSuccess(
                "PUT", bucket: bucket, key: key, query: "partNumber=\(number)&" + query,
                headers: ["x-amz-checksum-crc32": checksum], body: bytes, payload: .unsigned)
        }
        return UploadedPart(number: number, etag: response.headers["etag"] ?? "", checksum: checksum)
    }

    /// Whether the store still has these parts of upload `id`, with these ETags.
    private func storeHasParts(_ expected: [UploadedPart], of id: String) throws -> Bool {
        var listed: [Int: String] = [:]
        var marker = 0
        while true {
            let response = try client.send(
                "GET", bucket: bucket, key: key, query: "part-number-marker=\(marker)&uploadId=" + S3Client.encodeQueryValue(id))
            // The upload is gone (completed, aborted or expired).
            guard response.status == 200 else { return false }
            let numbers = XMLText.all("PartNumber", in: response.body).compactMap(Int.init)
            let etags = XMLText.all("ETag", in: response.body)
            for (index, number) in numbers.enumerated() where index < etags.count { listed[number] = etags[index] }
            guard XMLText.first("IsTruncated", in: response.body) == "true",
                let next = XMLText.first("NextPartNumberMarker", in: response.body).flatMap(Int.init)
            else { break }
            marker = next
        }
        return expected.allSatisfy { listed[$0.number].map(Self.unquoted) == Self.unquoted($0.etag) }
    }

    private static func unquoted(_ etag: String) -> String { etag.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }

    /// Aborts the multipart upload and forgets its state; best effort.
    private func abort() {
        if let uploadID {
            _ = try? client.send("DELETE", bucket: bucket, key: key, query: "uploadId=" + S3Client.encodeQueryValue(uploadID))
        }
        uploadID = nil
        parts = []
        partsMidstate = nil
        if hasState {
            _ = try? client.send("DELETE", bucket: bucket, key: stateKey)
            hasState = false
        }
    }

    /// A conditional write lost: fine when the object there holds these very bytes (another
    /// station stored them first), else `error`.
    private func acceptExisting(_ error: S3Error) throws {
        let head = try client.send("HEAD", bucket: bucket, key: key)
        guard head.status == 200, head.headers["x-amz-meta-sha256"] == sha256.hexString else { throw error }
    }

    /// The stored object's URL, once its ledger entry (if any) is written and its state removed.
    private func stored() throws -> URL {
        if hasState {
            _ = try? client.send("DELETE", bucket: bucket, key: stateKey)
            hasState = false
        }
        if let ledger {
            try store.record(ImportLedgerEntry(
                deviceID: ledger.deviceID, name: ledger.name, size: UInt64(max(0, size >= 0 ? size : partStart + Int64(part.count))),
                sha256: sha256.hexString, localPath: store.location.url(of: key)))
        }
        return store.objectURL(of: key)
    }
}

/// A part the store has.
struct UploadedPart: Codable, Sendable {
    var number: Int
    var etag: String
    /// Its CRC-32, big-endian in base64 (as `x-amz-checksum-crc32`).
    var checksum: String
}

/// What `<device>/.aibuds/uploads/` keeps of a multipart upload.
struct UploadState: Codable {
    var uploadID: String
    var key: String
    var partSize: Int
    /// The parts' checksum algorithm (nil in states written before parts carried CRC-32).
    var partChecksum: String?
    /// The device's validator of the file (nil: not resumable).
    var etag: String?
    /// The file's size.
    var size: Int64
    /// Bytes in the parts.
    var offset: Int64
    /// The SHA-256 state after `offset` bytes.
    var midstate: SHA256.Midstate?
    var parts: [UploadedPart]
}
