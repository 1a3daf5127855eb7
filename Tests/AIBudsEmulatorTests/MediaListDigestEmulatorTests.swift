import AIBudsDigest
@testable import AIBudsEmulator
import AIBudsTestKit
import AIBudsWire
import Foundation
import Testing

/// The SHA-256 in the Media list (docs/protocol.md §3): the store's indexing, the list's entries,
/// and the pages they come in.
@Suite struct MediaListDigestEmulatorTests {
    private static let seeds: [MediaSeed] = (0..<40).map { .generated(String(format: "IMG_%04d.jpg", $0), type: .image, size: 3_000 + UInt64($0)) }
        + [.generated("VID_0001.mp4", type: .video, size: 200_000, sixaxis: true), .generated("AUD_0001.m4a", type: .audio, size: 9_000)]

    /// The SHA-256 of a record's bytes, read through the store.
    private func expectedDigest(_ store: MediaStore, _ record: MediaRecord) throws -> [UInt8] {
        SHA256.hash(try store.read(record.object, offset: 0, count: Int(record.size)))
    }

    @Test func indexingGivesEveryListedFileItsDigestAndNewFilesTheirsLater() async throws {
        let harness = try DeviceHarness(seeds: Self.seeds)
        let store = harness.store
        #expect(try harness.call(MediaListRequest(limit: 256)).files.allSatisfy { $0.sha256 == nil })
        store.startIndexingDigests()
        defer { store.stopIndexingDigests() }
        try await waitUntilDigestsListed(store)
        for record in store.list() { #expect(record.sha256 == (try expectedDigest(store, record))) }

        // Every page carries the digests, and still fits the MTU.
        var entries: [MediaFileEntry] = []
        while entries.count < Self.seeds.count {
            let sequence = harness.nextSequence()
            let datagram = try #require(harness.raw(try harness.datagram(MediaListRequest(off: UInt64(entries.count)), sequence: sequence)).first)
            #expect(datagram.count <= 1024)
            let page = try DeviceHarness.decode(datagram, as: MediaListRequest.self, sequence: sequence, version: .v2).get()
            #expect(!page.files.isEmpty)
            entries += page.files
        }
        let records = Dictionary(uniqueKeysWithValues: store.list().map { ($0.name.text, $0) })
        for entry in entries { #expect(entry.sha256.map { Array($0) } == records[entry.name]?.sha256) }

        // A new recording is hashed after it appears.
        let added = try store.addGenerated(stem: "REC_1", extension: "m4a", type: .audio, size: 5_000)
        try await waitUntilDigestsListed(store)
        #expect(store.record(named: added.name)?.sha256 == (try expectedDigest(store, added)))
    }

    @Test func withoutIndexingOnlyFilesAskedForCarryTheirDigest() throws {
        let harness = try DeviceHarness(seeds: Self.seeds)
        let hash = try harness.call(FileHashRequest(name: "/media/IMG_0003.jpg", type: "sha256"))
        let list = try harness.call(MediaListRequest(limit: 8))
        for entry in list.files {
            #expect(entry.sha256 == (entry.name == "IMG_0003.jpg" ? hash.output.data : nil))
        }
        // The sidecar's digest is not a listed file's: nothing listed changes.
        _ = try harness.call(FileHashRequest(name: "/media/VID_0001.mp4.gcsv", type: "sha256"))
        #expect(try harness.call(MediaListRequest(type: 3)).files.allSatisfy { $0.sha256 == nil })
    }

    @Test func filesAboveTheSizeLimitAreNotIndexed() async throws {
        let store = try MediaStore(
            seeds: [.generated("small.jpg", type: .image, size: 1_000), .generated("big.mp4", type: .video, size: 50_000)], capacity: 1 << 30)
        store.startIndexingDigests(maximumSize: 10_000)
        defer { store.close() }
        try await eventually("small.jpg to be hashed") { store.record(named: MediaFileName("small.jpg"))?.sha256 != nil }
        #expect(store.record(named: MediaFileName("big.mp4"))?.sha256 == nil)
    }

    @Test func aChangedFileIsListedWithoutTheOldDigest() throws {
        let harness = try DeviceHarness(seeds: Self.seeds)
        _ = try harness.call(FileHashRequest(name: "/media/AUD_0001.m4a", type: "sha256"))
        #expect(try harness.call(MediaListRequest(type: 2)).files.first?.sha256 != nil)
        // An upload replaces the file: its new version has no known digest yet.
        _ = try harness.call(FileUploadRequest(off: 0, data: Data(repeating: 1, count: 10), name: "/media/AUD_0001.m4a", len: 10))
        let entry = try #require(try harness.call(MediaListRequest(type: 2)).files.first)
        #expect(entry.size == 10 && entry.sha256 == nil)
    }

    @Test func pagesOfATypeAreReadWithoutTheWholeList() throws {
        let store = try MediaStore(seeds: Self.seeds, capacity: 1 << 30)
        let all = store.page(offset: 0, limit: 1_000)
        #expect(all.total == Self.seeds.count && all.files.map(\.name) == store.list().map(\.name))
        let images = store.page(type: .image, offset: 35, limit: 10)
        #expect(images.total == 40 && images.files.map(\.name.text) == (35..<40).map { String(format: "IMG_%04d.jpg", $0) })
        #expect(store.page(type: .video, offset: 0, limit: 5).files.map(\.name.text) == ["VID_0001.mp4"])
        #expect(store.page(offset: 500, limit: 5).files.isEmpty)
        #expect(store.page(offset: -3, limit: -1).files.isEmpty)
        // The per-type list follows deletions.
        try store.delete(MediaFileName("IMG_0000.jpg"))
        #expect(store.page(type: .image, offset: 0, limit: 1).files.first?.name.text == "IMG_0001.jpg")
        #expect(store.page(type: .image, offset: 0, limit: 100).total == 39)
    }
}
