@testable import AIBudsEmulator
import AIBudsDigest
import AIBudsFoundation
import AIBudsSync
import AIBudsWire
import Foundation
import Testing

/// Names a hostile device might hold: path-like, control characters, NUL, 4 KB long, and pairs
/// that differ only by case or by Unicode normalisation.
let hostileNames: [String] = [
    "../x.jpg", "/etc/x.jpg", "a/../../b.jpg", "nul\u{0}name.jpg", "tab\tand\nnewline\u{7}.wav",
    String(repeating: "a", count: 4092) + ".wav", "Case.jpg", "case.jpg",
    "caf\u{E9}.wav", "cafe\u{301}.wav", "%2e%2e%2fx.jpg", " .mp4", "\u{202E}gpj.exe.mp4",
]

@Suite struct MediaStoreTests {
    private func hostileStore(stateDirectory: URL? = nil) throws -> MediaStore {
        let seeds = hostileNames.enumerated().map { index, name in
            MediaSeed.generated(name, type: .audio, size: UInt64(100 + index * 37), seed: UInt64(index))
        }
        return try MediaStore(seeds: seeds, capacity: 1 << 30, stateDirectory: stateDirectory)
    }

    @Test func hostileNamesAreDistinctKeysFoundOnlyByExactName() throws {
        let store = try hostileStore()
        #expect(store.list().count == hostileNames.count)
        for (index, name) in hostileNames.enumerated() {
            let record = try #require(store.record(named: MediaFileName(name)))
            #expect(record.name.utf8 == Array(name.utf8))
            #expect(record.size == UInt64(100 + index * 37))
        }
        // Canonically equivalent in Swift, but two different files on the device.
        #expect("caf\u{E9}.wav" == "cafe\u{301}.wav")
        #expect(store.record(named: MediaFileName("caf\u{E9}.wav"))?.id != store.record(named: MediaFileName("cafe\u{301}.wav"))?.id)
        for near in ["x.jpg", "etc/x.jpg", "/etc/x.jpg/", "CASE.jpg", "nul", "nul\u{0}name.jpg\u{0}", "b.jpg", "..%2fx.jpg"] {
            #expect(store.record(named: MediaFileName(near)) == nil, "\(near) must not match")
        }
    }

    @Test func listIsOrderedByUnicodeScalars() throws {
        let store = try hostileStore()
        let names = store.list().map(\.name.utf8)
        #expect(names == names.sorted { $0.lexicographicallyPrecedes($1) })
        let scalarOrder = hostileNames.sorted { Array($0.unicodeScalars.map(\.value)).lexicographicallyPrecedes(Array($1.unicodeScalars.map(\.value))) }
        #expect(store.list().map(\.name.text.utf8).map(Array.init) == scalarOrder.map { Array($0.utf8) })
    }

    @Test func generatedContentIsDeterministicWithRandomAccess() {
        let whole = GeneratedContent.bytes(seed: 42, offset: 0, count: 10_000)
        #expect(whole == GeneratedContent.bytes(seed: 42, offset: 0, count: 10_000))
        #expect(whole != GeneratedContent.bytes(seed: 43, offset: 0, count: 10_000))
        for (offset, count) in [(0, 1), (3, 5), (7, 9), (8, 8), (4095, 777), (9_999, 1)] {
            #expect(GeneratedContent.bytes(seed: 42, offset: UInt64(offset), count: count) == whole.subdata(in: offset..<offset + count))
        }
    }

    @Test func readsDigestsAndMaterialisesEveryKindOfContent() throws {
        let folder = try TemporaryFolder("store")
        defer { folder.remove() }
        let fileURL = folder.url.appendingPathComponent("source.bin")
        let fileBytes = Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        try fileBytes.write(to: fileURL)
        let store = try MediaStore(seeds: [
            MediaSeed(name: MediaFileName("host.wav"), type: .audio, size: 5000, content: .file(fileURL)),
            .generated("gen.mp4", type: .video, size: 300_001, seed: 9, sixaxis: true),
        ], capacity: 1 << 30)
        let host = try #require(store.object(named: MediaFileName("host.wav")))
        #expect(try store.read(host, offset: 0, count: 10_000) == fileBytes)
        #expect(try store.read(host, offset: 4990, count: 100) == fileBytes.suffix(10))
        #expect(try store.read(host, offset: 5000, count: 100).isEmpty)
        #expect(throws: EmulatorError.self) { try store.read(host, offset: 5001, count: 1) }

        let generated = try #require(store.object(named: MediaFileName("gen.mp4")))
        let bytes = GeneratedContent.bytes(seed: 9, offset: 0, count: 300_001)
        let (sha, covered) = try store.digest(.sha256, of: generated)
        #expect(sha == .sha256(SHA256.hash(bytes)) && covered == 300_001)
        #expect(try store.digest(.crc32, of: generated, offset: 10, length: 100).digest == .crc32(CRC32.checksum(bytes[10..<110])))
        let materialised = try store.materialize(generated)
        #expect(try Data(contentsOf: materialised) == bytes)
        #expect(try store.materialize(generated) == materialised)

        // The six-axis sidecar is readable by name beside its video, but not listed.
        let sidecar = try #require(store.object(named: MediaFileName("gen.mp4.gcsv")))
        #expect(store.list().map(\.name.text) == ["gen.mp4", "host.wav"])
        let text = String(decoding: try store.read(sidecar, offset: 0, count: 64), as: UTF8.self)
        #expect(text.hasPrefix("GYROFLOW IMU LOG"))
        #expect(store.object(named: MediaFileName("host.wav.gcsv")) == nil)
        #expect(store.file(named: "gen.mp4")?.size == 300_001)
        #expect(store.file(named: "gen.mp4")?.etag == "\"\(generated.id)-300001-1\"")
    }

    @Test func deletionsRaiseTheGenerationAndCheckIt() throws {
        let store = try hostileStore()
        let observed = ObservedChanges()
        store.setChangeObserver { observed.append($0) }
        #expect(store.generation == 1)
        #expect(throws: EmulatorError.self) { try store.delete(MediaFileName("CASE.jpg")) }
        #expect(throws: EmulatorError.self) { try store.delete(MediaFileName("../x.jpg"), ifGeneration: 7) }
        #expect(store.record(named: MediaFileName("../x.jpg")) != nil)
        #expect(try store.delete(MediaFileName("../x.jpg"), ifGeneration: 1) == 2)
        #expect(store.record(named: MediaFileName("../x.jpg")) == nil)
        #expect(store.change(since: 1) == MediaChange(generation: 2, types: [.audio]))
        #expect(store.change(since: 2) == nil)
        #expect(store.change(since: 99)?.types == [.image, .audio, .video])
        #expect(store.deleteAll(type: .video) == (2, 0))
        #expect(store.deleteAll(type: .audio).deleted == hostileNames.count - 1)
        #expect(store.list().isEmpty)
        #expect(observed.changes.map(\.generation) == [2, 3])
    }

    @Test func uploadsArriveInOrderAndReplaceByExactName() throws {
        let store = try MediaStore(seeds: [.generated("song.wav", type: .audio, size: 10)], capacity: 1000)
        #expect(throws: EmulatorError.self) { try store.upload(MediaFileName("notes.txt"), offset: 0, data: Data([1]), total: 1) }
        #expect(throws: EmulatorError.self) { try store.upload(MediaFileName("a.wav"), offset: 0, data: Data(), total: nil) }
        #expect(throws: EmulatorError.self) { try store.upload(MediaFileName("big.wav"), offset: 0, data: Data(), total: 991) }
        #expect(try store.upload(MediaFileName("song.wav"), offset: 0, data: Data([1, 2, 3]), total: 6) == 3)
        #expect(store.record(named: MediaFileName("song.wav"))?.size == 10, "the old file stays until the upload completes")
        #expect(try store.upload(MediaFileName("song.wav"), offset: 5, data: Data([9]), total: nil) == 3, "a gap is refused")
        #expect(throws: EmulatorError.self) { try store.upload(MediaFileName("song.wav"), offset: 3, data: Data([4, 5, 6, 7]), total: nil) }
        #expect(try store.upload(MediaFileName("song.wav"), offset: 3, data: Data([4, 5, 6]), total: nil) == 6)
        let record = try #require(store.record(named: MediaFileName("song.wav")))
        #expect(record.size == 6 && record.changedGeneration == 2)
        #expect(try store.read(record.object, offset: 0, count: 100) == Data([1, 2, 3, 4, 5, 6]))
        #expect(try store.upload(MediaFileName("empty.m4a"), offset: 0, data: Data(), total: 0) == 0)
        #expect(store.record(named: MediaFileName("empty.m4a"))?.size == 0)
    }

    @Test func stateSurvivesARestart() throws {
        let folder = try TemporaryFolder("state")
        defer { folder.remove() }
        do {
            let store = try hostileStore(stateDirectory: folder.url)
            try store.delete(MediaFileName("nul\u{0}name.jpg"))
            try store.delete(MediaFileName("cafe\u{301}.wav"))
            _ = try store.upload(MediaFileName("new\u{1}.wav"), offset: 0, data: Data([7, 7, 7]), total: 3)
            _ = try store.addGenerated(stem: "REC_1", extension: "opus", type: .audio, size: 12_345)
            _ = try store.addGenerated(stem: "VID_1", extension: "mp4", type: .video, size: 3_000_000, sixaxis: true)
            // An upload in progress is not part of the state.
            _ = try store.upload(MediaFileName("half.wav"), offset: 0, data: Data([1]), total: 2)
        }
        let reopened = try hostileStore(stateDirectory: folder.url)
        #expect(reopened.generation == 6)
        #expect(reopened.record(named: MediaFileName("nul\u{0}name.jpg")) == nil)
        #expect(reopened.record(named: MediaFileName("cafe\u{301}.wav")) == nil)
        #expect(reopened.record(named: MediaFileName("caf\u{E9}.wav")) != nil)
        #expect(reopened.record(named: MediaFileName("half.wav")) == nil)
        let uploaded = try #require(reopened.record(named: MediaFileName("new\u{1}.wav")))
        #expect(try reopened.read(uploaded.object, offset: 0, count: 10) == Data([7, 7, 7]))
        let video = try #require(reopened.record(named: MediaFileName("VID_1.mp4")))
        #expect(video.sixaxis && video.size == 3_000_000)
        #expect(reopened.record(named: MediaFileName("REC_1.opus"))?.size == 12_345)
        #expect(reopened.list().count == hostileNames.count - 2 + 3)
    }
}

/// Changes seen by a store observer.
final class ObservedChanges: Sendable {
    private let storage = Locked<[MediaChange]>([])
    func append(_ change: MediaChange) { storage.withLock { $0.append(change) } }
    var changes: [MediaChange] { storage.withLock { $0 } }
}

