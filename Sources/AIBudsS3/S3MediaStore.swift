import AIBuds
import AIBudsImport
import AIBudsDigest
import AIBudsTransfer
import Foundation

/// A station's S3 destination (`s3://BUCKET/PREFIX`): each device's files become objects under
/// `PREFIX/<device id>/<safe name>`, verified and stored once, with the ledger beside them.
///
/// - Object keys: the device id as a safe component, the file name as ``/AIBudsTransfer/SafeFileName`` makes it
///   (no `/`, no control or format characters, no `.`/`..`, at most 200 bytes), so a hostile name
///   cannot reach another device's objects or the ledger.
/// - Streaming: a device file goes from the device into its object as it downloads
///   (``streamTarget(deviceID:name:size:sha256:)``, `S3ObjectUpload`), with at most two parts
///   in memory and nothing on local disk; only files kept locally for a while (videos to
///   stabilize, their stabilized copies) are stored from a file.
/// - Verification: every part is sent with `x-amz-checksum-crc32` (the store rejects a part whose
///   bytes differ), the whole file is hashed as it is sent and must equal the device's SHA-256,
///   which is stored as the object's metadata `x-amz-meta-sha256`; a small file goes in one `PUT`
///   whose checksum is the device's SHA-256 itself.
/// - Once: an object whose metadata has the same SHA-256 is not stored again; the final write
///   (the `PUT` or the multipart `Complete`) is conditional (`If-None-Match: *`), so two stations
///   importing the same device never write one file twice.
/// - Resume: a multipart upload's state (its id, parts, the device's ETag and the SHA-256 state
///   after the parts) is kept in `<device>/.aibuds/uploads/`, saved with a part at most every
///   ``stateInterval`` (the first one that long after the upload began); an interrupted import finds it,
///   checks the parts are still there, and asks the device only for the rest.
/// - Ledger: `<device>/.aibuds/ledger/<SHA-256 of the device name>.json`, one
///   ``/AIBudsImport/ImportLedgerEntry`` per file (its `localPath` is the object's `s3://` URL), written once.
public final class S3MediaStore: MediaObjectStore {
    /// The client that sends the requests.
    public let client: S3Client
    /// The bucket and prefix.
    public let location: S3Location
    /// The size of a multipart upload's parts (at least 5 MiB, S3's minimum); smaller files are
    /// stored with one `PUT`.
    public let partSize: Int

    /// How many part bodies are sent at once over every device of the station.
    public let maximumConcurrentUploads: Int
    private let uploadSlots: DispatchSemaphore
    /// How many parts may be in memory at once over every file of the station (filling or being
    /// sent), shared fairly between the devices; a download that would start one more waits for
    /// a part to be sent.
    public let maximumBufferedParts: Int
    /// The places of `maximumBufferedParts`, shared fairly between the devices.
    let partBudget: PartBudget
    /// How often a multipart upload's state is saved beside the objects: after a part is stored,
    /// once this long passed since the upload began or its state was last saved (and whenever an
    /// import stops: Ctrl-C, a link given up on). An import killed and run again asks the device
    /// again for what came after the last save: about this long's bytes and the parts then in
    /// flight; an upload killed before its first save starts afresh. Each save, and its removal, is a request the
    /// store pays for: SeaweedFS spent about 5 ms of CPU on each, and saving when each upload
    /// began and after every 8 MiB part cost the eight-device benchmark 1.2 of its 15 server CPU-s.
    public let stateInterval: Duration

    /// Creates the destination `location` reached through `client`.
    public init(
        client: S3Client, location: S3Location, partSize: Int = 8 << 20, maximumConcurrentUploads: Int = 10, maximumBufferedParts: Int = 24,
        stateInterval: Duration = .seconds(2)
    ) {
        self.stateInterval = stateInterval
        self.client = client
        self.location = location
        self.partSize = max(5 << 20, partSize)
        self.maximumConcurrentUploads = max(1, maximumConcurrentUploads)
        uploadSlots = DispatchSemaphore(value: max(1, maximumConcurrentUploads))
        // Two parts per upload slot at least: one being sent while the next fills.
        self.maximumBufferedParts = max(2, maximumBufferedParts)
        partBudget = PartBudget(capacity: max(2, maximumBufferedParts), partSize: self.partSize)
    }

    /// The key prefix of a device's objects, ending in `/`.
    public func prefix(ofDevice deviceID: String) -> String {
        location.prefix + ImportLedger.safeComponent(deviceID) + "/"
    }

    /// `s3://BUCKET/PREFIX/<device id>/`.
    public func location(ofDevice deviceID: String) -> String { location.url(of: prefix(ofDevice: deviceID)) }

    /// The key of the ledger entry of the device file `name`.
    public func ledgerKey(deviceID: String, name: String) -> String {
        prefix(ofDevice: deviceID) + ".aibuds/ledger/" + SHA256.hash(Data(name.utf8)).hexString + ".json"
    }

    /// Checks that the bucket answers to these credentials (a `HEAD` of the bucket).
    ///
    /// - Throws: ``S3Error`` (`.denied` for wrong credentials, `.notFound` for a missing bucket).
    public func checkAccess() throws {
        let response = try client.send("HEAD", bucket: location.bucket, key: "")
        guard (200..<300).contains(response.status) else {
            throw S3Client.error(response, "access to s3://\(location.bucket)")
        }
    }

    /// Whether the ledger has the device file `name` of `size` bytes.
    public func hasImported(deviceID: String, name: String, size: UInt64) throws -> Bool {
        guard let entry = try ledgerEntry(deviceID: deviceID, name: name) else { return false }
        return entry.size == size
    }

    /// The ledger entry of the device file `name`, if the store has one.
    public func ledgerEntry(deviceID: String, name: String) throws -> ImportLedgerEntry? {
        let response = try client.send("GET", bucket: location.bucket, key: ledgerKey(deviceID: deviceID, name: name))
        if response.status == 404 { return nil }
        guard response.status == 200 else { throw S3Client.error(response, "reading the ledger of \(deviceID)") }
        return try? JSONDecoder.ledger.decode(ImportLedgerEntry.self, from: response.body)
    }

    /// Where the device file `name` (`size` bytes, SHA-256 `sha256`) goes when streamed from the
    /// device: `.stored` when an object under the device's place already holds these bytes (its
    /// ledger entry is written if missing), else a sink that uploads them as they arrive
    /// (`S3ObjectUpload`) at the first free key.
    public func streamTarget(deviceID: String, name: String, size: UInt64, sha256: [UInt8]) throws -> MediaObjectStreamTarget {
        let objectName = try SafeFileName.make(from: name)
        switch try freeKey(deviceID: deviceID, objectName: objectName, sha256: sha256) {
        case .stored(let key):
            try record(ImportLedgerEntry(deviceID: deviceID, name: name, size: size, sha256: sha256.hexString, localPath: location.url(of: key)))
            // An import stopped between its Complete and the removal of its upload state left it
            // (a file of one part never has one).
            if size > UInt64(partSize) {
                _ = try? client.send("DELETE", bucket: location.bucket, key: uploadStateKey(key: key, deviceID: deviceID, sha256: sha256))
            }
            return .stored(objectURL(of: key))
        case .free(let key):
            return .sink(upload(key: key, deviceID: deviceID, sha256: sha256, size: size, ledgerName: name))
        }
    }

    /// Stores `file` (see ``/AIBudsImport/MediaObjectStore/store(file:deviceID:name:sha256:companionName:)``):
    /// its bytes go through the same upload as a streamed file's, resuming an upload an
    /// interrupted import left.
    public func store(file: URL, deviceID: String, name: String, sha256: [UInt8], companionName: String?) throws -> URL {
        let objectName = try SafeFileName.make(from: companionName ?? name)
        let expected = sha256.isEmpty ? try SHA256.hash(fileAt: file) : sha256
        let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? UInt64 ?? 0
        var skipping: Set<String> = []
        // Each lost race takes one key out of the 17 freeKey tries.
        for _ in 0...Self.numberedKeys {
            let key: String
            switch try freeKey(deviceID: deviceID, objectName: objectName, sha256: expected, skipping: skipping) {
            case .stored(let existing):
                if companionName == nil {
                    try record(ImportLedgerEntry(
                        deviceID: deviceID, name: name, size: size, sha256: expected.hexString, localPath: location.url(of: existing)))
                }
                return objectURL(of: existing)
            case .free(let free): key = free
            }
            let upload = upload(key: key, deviceID: deviceID, sha256: expected, size: size, ledgerName: companionName == nil ? name : nil)
            do {
                return try Self.feed(file, size: Int64(size), into: upload)
            } catch let error as S3Error where error.kind == .preconditionFailed {
                // Another station stored other bytes at this key first: the next free key.
                skipping.insert(key)
            }
        }
        throw S3Error(.http, "no free key for \(name) under \(location(ofDevice: deviceID))")
    }

    /// Sends the local file's bytes through `upload` (from where an earlier run stopped, when it
    /// left state) and finishes it once they hash to the expected SHA-256.
    private static func feed(_ file: URL, size: Int64, into upload: S3ObjectUpload) throws -> URL {
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        // A staged file's validator: its bytes are fixed, so its size names them.
        let validator = "\"staged-\(size)\""
        var offset: Int64 = 0
        if let resume = try upload.resumePoint(), resume.etag == validator, resume.size == size { offset = resume.offset }
        try handle.seek(toOffset: UInt64(offset))
        try upload.begin(at: offset, etag: validator, size: size)
        do {
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                try chunk.withUnsafeBytes { try upload.write($0) }
            }
            return try upload.finish(sha256: upload.digest())
        } catch {
            upload.suspend()
            throw error
        }
    }

    /// How many numbered keys (`name`, `name (2)`, …) are asked for before the key named by the bytes.
    static let numberedKeys = 16

    /// A key under the device's place for `objectName`: one whose object holds these bytes
    /// already, or the first free one of `name`, `name (2)`, … `name (16)` and last `name
    /// (<first 16 hex digits of the SHA-256>)`, which no other bytes want. At most 17 `HEAD`s,
    /// whatever the store answers (one that calls every key taken was asked 1,000 times).
    private func freeKey(deviceID: String, objectName: String, sha256: [UInt8], skipping: Set<String> = []) throws -> ChosenKey {
        let prefix = prefix(ofDevice: deviceID)
        var candidates = (1...Self.numberedKeys).map { prefix + ($0 == 1 ? objectName : SafeFileName.numbered(objectName, $0)) }
        candidates.append(prefix + SafeFileName.numbered(objectName, String(sha256.hexString.prefix(16))))
        for key in candidates where !skipping.contains(key) {
            let head = try client.send("HEAD", bucket: location.bucket, key: key)
            switch head.status {
            case 200:
                if head.headers["x-amz-meta-sha256"] == sha256.hexString { return .stored(key) }
            case 404:
                return .free(key)
            default:
                throw S3Client.error(head, "HEAD s3://\(location.bucket)/\(key)")
            }
        }
        throw S3Error(
            .http, "no free key for \(objectName) under \(location(ofDevice: deviceID)): the store says other bytes hold "
                + "all \(candidates.count) keys tried, the last named by these bytes' SHA-256")
    }

    private enum ChosenKey {
        case stored(String)
        case free(String)
    }

    /// The upload of the bytes with SHA-256 `sha256` to `key`; its state lives under
    /// `<device>/.aibuds/uploads/`, named by the key and the bytes.
    func upload(key: String, deviceID: String, sha256: [UInt8], size: UInt64, ledgerName: String?) -> S3ObjectUpload {
        S3ObjectUpload(
            store: self, key: key, stateKey: uploadStateKey(key: key, deviceID: deviceID, sha256: sha256), sha256: sha256,
            size: size, device: deviceID, ledger: ledgerName.map { (deviceID, $0) })
    }

    /// Where the state of the upload of the bytes with SHA-256 `sha256` to `key` is kept. The
    /// parts' checksum is in the name: a station whose parts carry another one (SHA-256, before
    /// CRC-32) never takes over this upload, nor this station its.
    private func uploadStateKey(key: String, deviceID: String, sha256: [UInt8]) -> String {
        prefix(ofDevice: deviceID) + ".aibuds/uploads/" + SHA256.hash(Data(key.utf8)).hexString + "-" + sha256.hexString
            + "-" + S3ObjectUpload.partChecksumAlgorithm.lowercased() + ".json"
    }

    /// The `s3://` URL of `key`, percent-encoded.
    func objectURL(of key: String) -> URL { URL(string: location.url(of: S3Client.encodeKey(key)))! }

    /// Runs `request` in one of the station's upload slots (at most `maximumConcurrentUploads`
    /// bodies in flight over all devices).
    func withSlot<T>(_ request: () throws -> T) throws -> T {
        uploadSlots.wait()
        defer { uploadSlots.signal() }
        return try request()
    }

    /// Writes a ledger entry once (an entry another station wrote first stays).
    func record(_ entry: ImportLedgerEntry) throws {
        let body = try JSONEncoder.ledger.encode(entry)
        let response = try client.send(
            "PUT", bucket: location.bucket, key: ledgerKey(deviceID: entry.deviceID, name: entry.name),
            headers: ["If-None-Match": "*", "Content-Type": "application/json"], body: body)
        guard (200..<300).contains(response.status) || response.status == 412 else {
            throw S3Client.error(response, "recording \(entry.name) in the ledger")
        }
    }
}

extension JSONEncoder {
    /// Ledger entries as the local ledger writes them (ISO 8601 dates).
    static var ledger: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}

extension JSONDecoder {
    /// Ledger entries as the local ledger writes them (ISO 8601 dates).
    static var ledger: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
