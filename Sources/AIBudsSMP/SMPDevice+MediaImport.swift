import AIBuds
import AIBudsFoundation
import AIBudsWire

// The SMP side of media import (docs/protocol.md: Media group 65, File group 8 hashes): the
// requests that `MediaImportControlChannel` needs beyond the hotspot.

extension SMPClient {
    /// The device's whole media list (of `type`, or all), read page by page at one generation; a
    /// list that changes while it is read is read again (up to three times).
    public func mediaListing(type: MediaFileType?, pageLimit: UInt64 = 256) async throws(SMPError) -> DeviceMediaListing {
        var attempt = 0
        while true {
            attempt += 1
            var files: [DeviceMediaEntry] = []
            var generation: UInt64?
            var total: UInt64 = 0
            var changed = false
            repeat {
                let page = try await send(MediaListRequest(type: type?.rawValue, off: UInt64(files.count), limit: pageLimit))
                if let generation, generation != page.generation {
                    changed = true
                    break
                }
                generation = page.generation
                total = page.total
                guard !page.files.isEmpty || UInt64(files.count) >= total else {
                    throw SMPError(.malformedResponse, "the media list page at offset \(files.count) of \(total) is empty")
                }
                files += page.files.map {
                    DeviceMediaEntry(
                        id: $0.id, name: $0.name, type: MediaFileType(lenientRawValue: $0.type), size: $0.size,
                        hasSixAxisData: $0.sixaxis)
                }
            } while UInt64(files.count) < total
            if !changed, let generation { return DeviceMediaListing(generation: generation, files: files) }
            guard attempt < 3 else {
                throw SMPError(.malformedResponse, "the media list kept changing while it was read")
            }
        }
    }

    /// The SHA-256 of a device file (`/media/<name>`), or `nil` when the device does not offer
    /// SHA-256.
    public func mediaSHA256(named name: String, timeout: Duration? = nil) async throws(SMPError) -> [UInt8]? {
        let response: FileHashResponse
        do {
            response = try await send(FileHashRequest(name: "/media/" + name, type: "sha256"), timeout: timeout)
        } catch {
            // A device without SHA-256 answers FS_MGMT_ERR_CHECKSUM_HASH_NOT_FOUND (v2: File group rc 13),
            // or, in SMP v1, "not supported".
            if let device = error.deviceError,
                device.group == SMPGroupID.file ? device.rc == 13 : device.rc == MGMTError.notSupported.rawValue
            {
                return nil
            }
            throw error
        }
        guard response.type == "sha256", let digest = response.output.data, digest.count == 32 else {
            throw SMPError(.malformedResponse, "the device answered a SHA-256 request with a \(response.type) value")
        }
        return Array(digest)
    }
}
