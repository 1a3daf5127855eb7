import AIBudsEmulator
import AIBudsSMPClient
import AIBudsTestKit
import AIBudsCBOR
import AIBudsWire
import Foundation
import Testing

/// `SMPClient.mediaListing`: the list read with several pages in flight, with the SHA-256 the
/// device lists (docs/protocol.md §3, Media group).
@Suite(.timeLimit(.minutes(1))) struct MediaListingTests {
    private func entry(_ index: Int, sha256: Data? = nil) -> CBOR {
        var map: [CBOR: CBOR] = ["id": .text("id\(index)"), "name": .text("f\(index).jpg"), "type": 1, "size": .unsigned(UInt64(index)), "sixaxis": false]
        if let sha256 { map["sha256"] = .bytes(sha256) }
        return .map(map)
    }

    private func page(generation: UInt64 = 5, total: Int, _ indices: Range<Int>, sha256: Data? = nil) -> CBOR {
        ["generation": .unsigned(generation), "total": .unsigned(UInt64(total)), "files": .array(indices.map { entry($0, sha256: sha256) })]
    }

    private func offsetAndLimit(_ request: SMPPacket) throws -> (Int, Int) {
        let map = try request.payloadMap()
        guard case .unsigned(let off)? = map["off"], case .unsigned(let limit)? = map["limit"] else { throw ScriptError("no off/limit") }
        // Every page request says how large a response the client takes.
        guard map["mtu"] == .unsigned(UInt64(SMPClient.mediaListResponseLimit)) else { throw ScriptError("no mtu") }
        return (Int(off), Int(limit))
    }

    @Test func theRestOfTheListIsAskedForAtOnceAndShortPagesAreFilledIn() async throws {
        let (client, device, _) = try makePair()
        let digest = Data(repeating: 0xAB, count: 32)
        async let listing = client.mediaListing(type: nil)
        let first = try await device.nextRequest()
        #expect(try offsetAndLimit(first) == (0, 256))
        try device.reply(to: first, page(total: 9, 0..<3, sha256: digest))
        // Both remaining pages go out before any answer.
        let rest = try await device.nextRequests(2)
        #expect(try rest.map(offsetAndLimit).map { [$0.0, $0.1] } == [[3, 3], [6, 3]])
        try device.reply(to: rest[1], page(total: 9, 6..<9, sha256: digest))
        try device.reply(to: rest[0], page(total: 9, 3..<5, sha256: digest))   // a page that holds fewer
        let gap = try await device.nextRequest()
        #expect(try offsetAndLimit(gap) == (5, 1))
        try device.reply(to: gap, page(total: 9, 5..<6))                      // this one lists no digest
        let result = try await listing
        #expect(result.generation == 5)
        #expect(result.files.map(\.name) == (0..<9).map { "f\($0).jpg" })
        #expect(result.files.map { $0.sha256 == nil } == (0..<9).map { $0 == 5 })
        #expect(result.files.first?.sha256 == digest)
    }

    @Test func aListThatChangesWhileReadIsReadAgain() async throws {
        let (client, device, _) = try makePair()
        async let listing = client.mediaListing(type: nil)
        for (generation, offset) in [(5, 0), (6, 2), (6, 0), (6, 2)] {
            let request = try await device.nextRequest()
            #expect(try offsetAndLimit(request).0 == offset)
            try device.reply(to: request, page(generation: UInt64(generation), total: 4, offset..<offset + 2))
        }
        let result = try await listing
        #expect(result.generation == 6 && result.files.count == 4)
    }

    @Test func aDigestOfTheWrongLengthIsAMalformedResponse() async throws {
        let (client, device, _) = try makePair()
        let failure = Task { await smpFailure { try await client.mediaListing(type: nil) } }
        try device.reply(to: try await device.nextRequest(), page(total: 1, 0..<1, sha256: Data([1, 2, 3])))
        #expect(await failure.value?.code == .malformedResponse)
    }

    @Test(arguments: [(total: 5, first: 0..<0), (total: 1 << 21, first: 0..<2)])
    func aListThatCannotBeReadIsAMalformedResponseAtOnce(total: Int, first: Range<Int>) async throws {
        // An empty first page of a non-empty list, or a total no device holds: no paging through.
        let (client, device, _) = try makePair()
        let failure = Task { await smpFailure { try await client.mediaListing(type: nil) } }
        try device.reply(to: try await device.nextRequest(), page(total: total, first))
        #expect(await failure.value?.code == .malformedResponse)
        #expect(client.requestsInFlight == 0)
    }

    /// Reads the whole list of an emulator on `link` holding 2,000 files with digests, and its
    /// first page as the SDK asks for it.
    private func readLongList(link: LinkProfile) async throws -> (listing: SMPMediaListing, firstPage: Int, store: [MediaRecord]) {
        let files: [MediaSeed] = (0..<2_000).map { .generated(String(format: "small-%05d.bin", $0), type: .video, size: 64) }
        let device = try LoopbackEmulator(files: files, link: link)
        defer { device.stop() }
        let store = device.emulator.device.store
        try await waitUntilDigestsListed(store)
        let client = try SMPClient(transport: UDPTransport(address: device.address))
        defer { client.close() }
        let listing = try await client.mediaListing(type: nil)
        let first = try await client.send(
            MediaListRequest(off: 0, limit: 256, mtu: UInt64(SMPClient.mediaListResponseLimit)), timeout: .seconds(30))
        return (listing, first.files.count, store.list())
    }

    @Test func aListPageReadsAlikeAsARawMapAndAsATypedResponse() async throws {
        // The typed request reads the page straight from its bytes; a raw request gets the map.
        let files: [MediaSeed] = (0..<5).map { .generated("f\($0).jpg", type: .image, size: 100 + $0) }
        // Both reads should see the same list, digests included.
        try await withHashedEmulator(files) { _, client in
            let typed = try await client.send(MediaListRequest(off: 0, limit: 10))
            let raw = try await client.send(group: MediaListRequest.group, command: MediaListRequest.command, operation: .read, payload: ["off": 0, "limit": 10])
            #expect(typed.files.map(\.name) == files.indices.map { "f\($0).jpg" })
            #expect(raw["total"] == .unsigned(5) && raw["generation"] == .unsigned(typed.generation))
            #expect(try CBORDecoder().decode(MediaListResponse.self, from: raw) == typed)
            #expect(typed.files.allSatisfy { $0.sha256?.count == 32 })
        }
    }

    @Test func twoThousandFilesAreListedIntactInLargeFrames() async throws {
        let (listing, firstPage, store) = try await readLongList(link: .unlimited)
        #expect(listing.files.count == 2_000)
        #expect(listing.files.map(\.name) == store.map(\.name.text))
        #expect(listing.files.map { $0.sha256.map(Array.init) } == store.map(\.sha256) && listing.files.allSatisfy { $0.sha256?.count == 32 })
        #expect(firstPage > 100)   // a 16 KiB page, where a 1 KiB one holds about ten entries
    }

    @Test func twoThousandFilesAreListedIntactInSmallBLEFrames() async throws {
        let (listing, firstPage, store) = try await readLongList(link: .ble)
        #expect(listing.files.count == 2_000)
        #expect(listing.files.map(\.name) == store.map(\.name.text))
        #expect(listing.files.map { $0.sha256.map(Array.init) } == store.map(\.sha256) && listing.files.allSatisfy { $0.sha256?.count == 32 })
        #expect(firstPage < 12)    // the ble link's 976-byte MTU
    }

    @Test func theEmulatorListsEveryFileWithItsDigestOverUDP() async throws {
        // Short names first, then long ones: later pages hold fewer entries than the first.
        let short: [MediaSeed] = (0..<30).map { .generated(String(format: "a%03d.jpg", $0), type: .image, size: 500) }
        let long: [MediaSeed] = (0..<90).map {
            .generated(String(format: "b%03d-", $0) + String(repeating: "x", count: 120) + ".mp4", type: .video, size: 700)
        }
        let files = short + long
        try await withHashedEmulator(files) { store, client in
            let listing = try await client.mediaListing(type: nil)
            #expect(listing.files.map(\.name) == store.list().map(\.name.text))
            #expect(listing.files.map { $0.sha256.map(Array.init) } == store.list().map(\.sha256))
            #expect(listing.files.allSatisfy { $0.sha256?.count == 32 })
            #expect(try await client.mediaListing(type: 1 /* image */).files.count == 30)
        }
    }

    /// Runs `body` with an emulator holding `files`, each hashed, and an SMP client of it over UDP;
    /// stops both after.
    private func withHashedEmulator(_ files: [MediaSeed], _ body: (MediaStore, SMPClient) async throws -> Void) async throws {
        let device = try LoopbackEmulator(files: files)
        defer { device.stop() }
        try await waitUntilDigestsListed(device.emulator.device.store)
        let client = try SMPClient(transport: UDPTransport(address: device.address))
        defer { client.close() }
        try await body(device.emulator.device.store, client)
    }
}
