import AIBudsWire

// The media requests that take more than one exchange (docs/protocol.md: Media group 65 list
// pages, File group 8 hashes). They answer in wire terms; the device layer (module AIBudsSMP)
// turns them into the SDK's models.

/// A device's whole media list as read at one generation.
public struct SMPMediaListing: Sendable, Equatable {
    /// The list generation every page was read at.
    public var generation: UInt64
    /// The entries in the device's order (by name), each SHA-256 either absent or 32 bytes.
    public var files: [MediaFileEntry]

    /// Wraps the entries of every page, read at list generation `generation`.
    public init(generation: UInt64, files: [MediaFileEntry]) {
        self.generation = generation
        self.files = files
    }
}

extension SMPClient {
    /// The device's whole media list (of wire type `type`, or all), read at one generation: the
    /// first page, then the rest with many requests in flight (the client's window), each asking for as many
    /// entries as the first page held; a page that holds fewer leaves a gap, asked for in the next
    /// round. A list that changes while it is read is read again (up to three times).
    ///
    /// Every request says that responses of up to `responseLimit` bytes are welcome (the request's
    /// `mtu`, docs/protocol.md §3): a device with room for it answers with fewer, larger pages; one
    /// without answers within its MTU, as before.
    public func mediaListing(
        type: Int?, pageLimit: UInt64 = 256, responseLimit: Int = SMPClient.mediaListResponseLimit
    ) async throws(SMPError) -> SMPMediaListing {
        let responseLimit = UInt64(max(0, responseLimit))
        for _ in 1...3 {
            if let listing = try await readMediaListing(type: type, pageLimit: pageLimit, responseLimit: responseLimit) {
                return listing
            }
        }
        throw SMPError(.malformedResponse, "the media list kept changing while it was read")
    }

    /// The largest Media `list` response ``mediaListing(type:pageLimit:responseLimit:)`` asks for
    /// by default: 16 KiB, so that a window of pages in flight fits the receive buffer
    /// `UDPTransport` asks for (1 MiB), and a page over Wi-Fi is a dozen IP fragments, not forty.
    public static let mediaListResponseLimit = 16_384

    /// The most media files a list may claim: more is taken for a malformed answer, not paged
    /// through.
    static let maxMediaListTotal: UInt64 = 1 << 20

    /// One read of the whole list; `nil` when its generation changed meanwhile.
    private func readMediaListing(
        type: Int?, pageLimit: UInt64, responseLimit: UInt64
    ) async throws(SMPError) -> SMPMediaListing? {
        let first = try await send(MediaListRequest(type: type, off: 0, limit: pageLimit, mtu: responseLimit))
        let total = first.total
        guard total <= Self.maxMediaListTotal else {
            throw SMPError(.malformedResponse, "the device claims \(total) media files; at most \(Self.maxMediaListTotal) are read")
        }
        guard total == 0 || !first.files.isEmpty else {
            throw SMPError(.malformedResponse, "the media list's first page is empty of \(total) files")
        }
        var pages: [UInt64: [MediaFileEntry]] = [0: Array(first.files.prefix(Int(clamping: pageLimit)))]
        let perPage = UInt64(max(1, pages[0]?.count ?? 1))
        while true {
            let wanted = Self.missingPages(pages, total: total, perPage: perPage, limit: 256)
            if wanted.isEmpty { break }
            var inFlight: [(off: UInt64, limit: UInt64, response: SMPPendingResponse<MediaListResponse>)] = []
            for (off, limit) in wanted {
                inFlight.append((off, limit, try await start(MediaListRequest(type: type, off: off, limit: limit, mtu: responseLimit))))
            }
            for (off, limit, pending) in inFlight {
                let page = try await pending.response()
                guard page.generation == first.generation else { return nil }
                guard !page.files.isEmpty else {
                    throw SMPError(.malformedResponse, "the media list page at offset \(off) of \(total) is empty")
                }
                pages[off] = Array(page.files.prefix(Int(clamping: limit)))
            }
        }
        var files: [MediaFileEntry] = []
        for off in pages.keys.sorted() {
            guard let page = pages[off], Int(clamping: off) <= files.count else { continue }
            for entry in page.dropFirst(files.count - Int(clamping: off)) {
                if let digest = entry.sha256, digest.count != 32 {
                    throw SMPError(.malformedResponse, "the media list gives \(entry.name) a \(digest.count)-byte SHA-256")
                }
                files.append(entry)
            }
        }
        return SMPMediaListing(generation: first.generation, files: files)
    }

    /// The pages (offset, limit) still to ask for: the gaps between the pages received, cut into
    /// pieces of `perPage` entries, at most `limit` of them.
    static func missingPages(_ pages: [UInt64: [MediaFileEntry]], total: UInt64, perPage: UInt64, limit: Int) -> [(UInt64, UInt64)] {
        var wanted: [(UInt64, UInt64)] = []
        var position: UInt64 = 0
        func cover(upTo end: UInt64) {
            while position < end, wanted.count < limit {
                let count = min(perPage, end - position)
                wanted.append((position, count))
                position += count
            }
        }
        for off in pages.keys.sorted() {
            cover(upTo: min(off, total))
            position = max(position, off + UInt64(pages[off]?.count ?? 0))
        }
        cover(upTo: total)
        return wanted
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
