@testable import AIBudsEmulator
import AIBudsTestKit
import AIBudsCBOR
import AIBudsWire
import Foundation
import Testing

/// Media `list` pages larger than the MTU for a client that takes them (the request's `mtu`,
/// docs/protocol.md §3), and the page bytes the emulator writes directly.
@Suite struct MediaListFrameTests {
    private static let seeds: [MediaSeed] = (0..<600).map {
        .generated(String(format: "IMG_%04d.jpg", $0), type: .image, size: 1_000 + UInt64($0))
    }

    /// Reads the whole list page by page with `mtu`; returns the entries and each page's size.
    private func readAll(_ harness: DeviceHarness, mtu: UInt64?) throws -> (entries: [MediaFileEntry], datagrams: [Int]) {
        var entries: [MediaFileEntry] = []
        var sizes: [Int] = []
        while entries.count < Self.seeds.count {
            let sequence = harness.nextSequence()
            let request = MediaListRequest(off: UInt64(entries.count), limit: 256, mtu: mtu)
            let datagram = try #require(harness.raw(try harness.datagram(request, sequence: sequence)).first)
            let page = try DeviceHarness.decode(datagram, as: MediaListRequest.self, sequence: sequence, version: .v2).get()
            try #require(!page.files.isEmpty)
            sizes.append(datagram.count)
            entries += page.files
        }
        return (entries, sizes)
    }

    @Test func aDeviceWithRoomAnswersWithPagesUpToTheClientsMTU() throws {
        let harness = try DeviceHarness(seeds: Self.seeds, maxListResponse: 65_000)
        let (entries, sizes) = try readAll(harness, mtu: 16_384)
        #expect(entries.map(\.name) == harness.store.list().map(\.name.text))
        #expect(sizes.allSatisfy { $0 <= 16_384 })
        #expect(sizes.count == 3)   // 256, 256 and 88 entries: the page limit, not the packet, bounds them
        // Without `mtu`, or with a smaller one, pages stay within the device's MTU.
        #expect(try readAll(harness, mtu: nil).datagrams.allSatisfy { $0 <= 1024 })
        #expect(try readAll(harness, mtu: 512).datagrams.allSatisfy { $0 <= 1024 })
        // The device's own limit caps what the client asks for.
        let capped = try DeviceHarness(seeds: Self.seeds, maxListResponse: 4_096)
        let (cappedEntries, cappedSizes) = try readAll(capped, mtu: 16_384)
        #expect(cappedEntries == entries)
        #expect(cappedSizes.allSatisfy { $0 <= 4_096 } && cappedSizes.count > 3)
    }

    @Test func aDeviceWithoutRoomAnswersWithinItsMTU() throws {
        // As on the ble link profile: the largest list response is the MTU.
        let harness = try DeviceHarness(seeds: Self.seeds, mtu: 976)
        let (entries, sizes) = try readAll(harness, mtu: 16_384)
        #expect(entries.map(\.name) == harness.store.list().map(\.name.text))
        #expect(sizes.allSatisfy { $0 <= 976 })
        #expect(LinkProfile.ble.maxListResponse == LinkProfile.ble.mtu)
        #expect(LinkProfile.unlimited.maxListResponse > LinkProfile.unlimited.mtu)
    }

    @Test func pageBytesAreTheDeterministicEncodingOfTheResponse() async throws {
        let harness = try DeviceHarness(seeds: Self.seeds + [.generated("VID_0001.mp4", type: .video, size: 9_000, sixaxis: true)])
        let store = harness.store
        store.startIndexingDigests()
        defer { store.stopIndexingDigests() }
        // Half with digests, half without.
        let records = store.list()
        try await waitUntilDigestsListed(store)
        let mixed = Array(store.list().prefix(20)) + Array(records.suffix(20))
        for packetSize in [1024, 4096, 65_000] {
            let payload = MediaListPage.payload(generation: 300, total: 1_000_000, records: mixed, packetSize: packetSize)
            let page = try CBORDecoder().decode(MediaListResponse.self, from: Data(payload.bytes))
            #expect(!page.files.isEmpty && payload.bytes.count + SMPHeader.size <= packetSize)
            let expected = MediaListResponse(generation: 300, total: 1_000_000, files: mixed.prefix(page.files.count).map {
                MediaFileEntry(id: $0.id, name: $0.name.text, type: $0.type.rawValue, size: $0.size, sixaxis: $0.sixaxis,
                               sha256: $0.sha256.map { Data($0) })
            })
            #expect(payload.bytes == Array(try CBOREncoder().encode(expected)))
            if packetSize == 65_000 { #expect(page.files.count == mixed.count) }
        }
        // A single entry larger than the packet still goes out alone.
        let one = MediaListPage.payload(generation: 1, total: 1, records: [mixed[0]], packetSize: 20)
        #expect(try CBORDecoder().decode(MediaListResponse.self, from: Data(one.bytes)).files.count == 1)
    }
}
