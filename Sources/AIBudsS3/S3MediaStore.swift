import AIBuds
import AIBudsDigest
import AIBudsTransfer
import Foundation

/// A station's S3 destination (`s3://BUCKET/PREFIX`): each device's files become objects under
/// `PREFIX/<device id>/<safe name>`, verified and stored once, with the ledger beside them.
///
/// - Object keys: the device id as a safe component, the file name as ``SafeFileName`` makes it
///   (no `/`, no control or format characters, no `.`/`..`, at most 200 bytes), so a hostile name
///   cannot reach another device's objects or the ledger.
/// - Verification: every part is sent with `x-amz-checksum-sha256` (the store rejects a part whose
///   bytes differ), the whole file is hashed as it is sent and must equal the device's SHA-256,
///   which is stored as the object's metadata `x-amz-meta-sha256`; a small file goes in one `PUT`
///   whose checksum is the device's SHA-256 itself.
/// - Once: an object whose metadata has the same SHA-256 is not stored again; the final write
///   (the `PUT` or the multipart `Complete`) is conditional (`If-None-Match: *`), so two stations
///   importing the same device never write one file twice.
/// - Resume: a multipart upload's id is kept in `<device>/.aibuds/uploads/`; an interrupted
///   import finds it, lists the parts the store has, and sends only the rest.
/// - Ledger: `<device>/.aibuds/ledger/<SHA-256 of the device name>.json`, one
///   ``ImportLedgerEntry`` per file (its `localPath` is the object's `s3://` URL), written once.
public final class S3MediaStore: MediaObjectStore {
    /// The client that sends the requests.
    public let client: S3Client
    /// The bucket and prefix.
    public let location: S3Location
    /// The size of a multipart upload's parts (at least 5 MiB, S3's minimum); smaller files are
    /// stored with one `PUT`.
    public let partSize: Int

    /// How many files are sent at once over every device of the station (each holds one part
    /// in memory).
    public let maximumConcurrentUploads: Int
    private let uploadSlots: DispatchSemaphore

    /// Creates the destination `location` reached through `client`.
    public init(client: S3Client, location: S3Location, partSize: Int = 8 << 20, maximumConcurrentUploads: Int = 10) {
        self.client = client
        self.location = location
        self.partSize = max(5 << 20, partSize)
        self.maximumConcurrentUploads = max(1, maximumConcurrentUploads)
        uploadSlots = DispatchSemaphore(value: max(1, maximumConcurrentUploads))
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

    /// Stores `file` (see ``MediaObjectStore/store(file:deviceID:name:sha256:companionName:)``).
    public func store(file: URL, deviceID: String, name: String, sha256: [UInt8], companionName: String?) throws -> URL {
        let objectName = try SafeFileName.make(from: companionName ?? name)
        let expected = sha256.isEmpty ? try SHA256.hash(fileAt: file) : sha256
        let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? UInt64 ?? 0
        for counter in 1...1000 {
            let key = prefix(ofDevice: deviceID) + (counter == 1 ? objectName : Self.numbered(objectName, counter))
            let head = try client.send("HEAD", bucket: location.bucket, key: key)
            switch head.status {
            case 200:
                // Another file of the device (a name that sanitizes alike) holds the key: the next one.
                guard head.headers["x-amz-meta-sha256"] == expected.hexString else { continue }
            case 404:
                do {
                    try upload(file, size: size, key: key, sha256: expected, deviceID: deviceID, name: objectName)
                } catch let error as S3Error where error.kind == .preconditionFailed {
                    // Another station stored an object at this key first: the same bytes, or look further.
                    let again = try client.send("HEAD", bucket: location.bucket, key: key)
                    guard again.status == 200, again.headers["x-amz-meta-sha256"] == expected.hexString else { continue }
                }
            default:
                throw S3Client.error(head, "HEAD s3://\(location.bucket)/\(key)")
            }
            let url = URL(string: location.url(of: S3Client.encodeKey(key)))!
            if companionName == nil {
                try record(ImportLedgerEntry(
                    deviceID: deviceID, name: name, size: size, sha256: expected.hexString, localPath: location.url(of: key)))
            }
            return url
        }
        throw S3Error(.http, "no free key for \(name) under \(location(ofDevice: deviceID))")
    }

    /// Writes a ledger entry once (an entry another station wrote first stays).
    private func record(_ entry: ImportLedgerEntry) throws {
        let body = try JSONEncoder.ledger.encode(entry)
        let response = try client.send(
            "PUT", bucket: location.bucket, key: ledgerKey(deviceID: entry.deviceID, name: entry.name),
            headers: ["If-None-Match": "*", "Content-Type": "application/json"], body: body)
        guard (200..<300).contains(response.status) || response.status == 412 else {
            throw S3Client.error(response, "recording \(entry.name) in the ledger")
        }
    }

    // MARK: Uploads

    private func upload(_ file: URL, size: UInt64, key: String, sha256: [UInt8], deviceID: String, name: String) throws {
        uploadSlots.wait()
        defer { uploadSlots.signal() }
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        let metadata = ["x-amz-meta-sha256": sha256.hexString]
        if size <= UInt64(partSize) {
            let data = try handle.readToEnd() ?? Data()
            // The checksum is the device's SHA-256: the store refuses bytes that are not the device's.
            var headers = metadata
            headers["If-None-Match"] = "*"
            headers["x-amz-checksum-sha256"] = Data(sha256).base64EncodedString()
            try client.expectSuccess("PUT", bucket: location.bucket, key: key, headers: headers, body: data, payloadSHA256: sha256)
            return
        }
        let stateKey = prefix(ofDevice: deviceID) + ".aibuds/uploads/" + SHA256.hash(Data(key.utf8)).hexString + "-" + sha256.hexString + ".json"
        var (uploadID, done) = try resumableUpload(stateKey: stateKey, key: key)
        if uploadID == nil {
            var headers = metadata
            headers["x-amz-checksum-algorithm"] = "SHA256"
            let created = try client.expectSuccess("POST", bucket: location.bucket, key: key, query: "uploads=", headers: headers)
            guard let id = XMLText.first("UploadId", in: created.body) else { throw S3Error(.http, "the store gave no upload id for \(key)") }
            uploadID = id
            done = [:]
            let state = try JSONEncoder().encode(UploadState(uploadID: id, key: key, partSize: partSize))
            try client.expectSuccess("PUT", bucket: location.bucket, key: stateKey, body: state)
        }
        guard let uploadID else { return }
        let query = "uploadId=" + S3Client.encodeQueryValue(uploadID)
        let whole = SHA256()
        var parts: [(number: Int, etag: String, checksum: String)] = []
        var number = 1
        while let chunk = try handle.read(upToCount: partSize), !chunk.isEmpty {
            whole.update(chunk)
            let partDigest = SHA256.hash(chunk)
            let checksum = Data(partDigest).base64EncodedString()
            if let etag = done[number], etag.size == chunk.count {
                parts.append((number, etag.etag, checksum))
            } else {
                let response = try client.expectSuccess(
                    "PUT", bucket: location.bucket, key: key, query: "partNumber=\(number)&" + query,
                    headers: ["x-amz-checksum-sha256": checksum], body: chunk, payloadSHA256: partDigest)
                parts.append((number, response.headers["etag"] ?? "", checksum))
            }
            number += 1
        }
        guard whole.finalize() == sha256 else {
            _ = try? client.send("DELETE", bucket: location.bucket, key: key, query: query)
            _ = try? client.send("DELETE", bucket: location.bucket, key: stateKey)
            throw S3Error(.integrity, "the bytes of \(name) do not have the device's SHA-256 \(sha256.hexString); nothing was stored")
        }
        var xml = "<CompleteMultipartUpload>"
        for part in parts {
            xml += "<Part><PartNumber>\(part.number)</PartNumber><ETag>\(XMLText.escape(part.etag))</ETag>"
                + "<ChecksumSHA256>\(part.checksum)</ChecksumSHA256></Part>"
        }
        xml += "</CompleteMultipartUpload>"
        let completed = try client.send(
            "POST", bucket: location.bucket, key: key, query: query, headers: ["If-None-Match": "*"], body: Data(xml.utf8))
        // A Complete can answer 200 with an error document.
        let failed = !(200..<300).contains(completed.status) || XMLText.first("Code", in: completed.body) != nil
        if failed {
            let error = S3Client.error(completed, "completing the upload of \(key)")
            if error.kind == .preconditionFailed {
                _ = try? client.send("DELETE", bucket: location.bucket, key: key, query: query)
                _ = try? client.send("DELETE", bucket: location.bucket, key: stateKey)
            }
            throw error
        }
        _ = try? client.send("DELETE", bucket: location.bucket, key: stateKey)
    }

    /// The upload an interrupted import left (its id and the parts the store has), if any.
    private func resumableUpload(stateKey: String, key: String) throws -> (String?, [Int: (etag: String, size: Int)]) {
        let saved = try client.send("GET", bucket: location.bucket, key: stateKey)
        guard saved.status == 200, let state = try? JSONDecoder().decode(UploadState.self, from: saved.body),
            state.key == key, state.partSize == partSize
        else { return (nil, [:]) }
        var parts: [Int: (etag: String, size: Int)] = [:]
        var marker = 0
        while true {
            let listed = try client.send(
                "GET", bucket: location.bucket, key: key,
                query: "part-number-marker=\(marker)&uploadId=" + S3Client.encodeQueryValue(state.uploadID))
            // The upload is gone (completed, aborted or expired): start afresh.
            guard listed.status == 200 else { return (nil, [:]) }
            let numbers = XMLText.all("PartNumber", in: listed.body).compactMap(Int.init)
            let etags = XMLText.all("ETag", in: listed.body)
            let sizes = XMLText.all("Size", in: listed.body).compactMap(Int.init)
            for (index, number) in numbers.enumerated() where index < etags.count && index < sizes.count {
                parts[number] = (etags[index], sizes[index])
            }
            guard XMLText.first("IsTruncated", in: listed.body) == "true", let next = XMLText.first("NextPartNumberMarker", in: listed.body).flatMap(Int.init)
            else { break }
            marker = next
        }
        return (state.uploadID, parts)
    }

    /// `stem (N).ext`, as local imports number names.
    static func numbered(_ name: String, _ counter: Int) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "\(name) (\(counter))" }
        return "\(name[..<dot]) (\(counter))\(name[dot...])"
    }
}

/// What `<device>/.aibuds/uploads/` keeps of a multipart upload.
private struct UploadState: Codable {
    var uploadID: String
    var key: String
    var partSize: Int
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
