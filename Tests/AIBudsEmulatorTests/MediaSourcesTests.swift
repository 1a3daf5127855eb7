@testable import AIBudsEmulator
import AIBudsFoundation
import AIBudsWire
import Foundation
import Testing

@Suite struct MediaSourcesTests {
    @Test func aFolderGivesItsMediaFilesWithSidecars() throws {
        let folder = try TemporaryFolder("media")
        defer { folder.remove() }
        let root = folder.url
        try FileManager.default.createDirectory(at: root.appendingPathComponent("trip/day 1"), withIntermediateDirectories: true)
        try Data(repeating: 1, count: 10).write(to: root.appendingPathComponent("a.JPG"))
        try Data(repeating: 2, count: 20).write(to: root.appendingPathComponent("trip/day 1/clip.mp4"))
        try Data("GYROFLOW IMU LOG\n".utf8).write(to: root.appendingPathComponent("trip/day 1/clip.gcsv"))
        try Data(repeating: 3, count: 30).write(to: root.appendingPathComponent("trip/other.mov"))
        try Data("GYROFLOW IMU LOG\nx\n".utf8).write(to: root.appendingPathComponent("trip/other.mov.gcsv"))
        try Data(repeating: 4, count: 40).write(to: root.appendingPathComponent("voice.opus"))
        try Data(repeating: 6, count: 6).write(to: root.appendingPathComponent("caf\u{E9}.wav"))
        try Data(repeating: 7, count: 7).write(to: root.appendingPathComponent("cafe\u{301}.wav"))
        try Data(repeating: 5, count: 50).write(to: root.appendingPathComponent("readme.txt"))
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("link.jpg"),
                                                   withDestinationURL: root.appendingPathComponent("a.JPG"))
        let seeds = try MediaSources.scan(folder: root)
        #expect(seeds.map(\.name.utf8) == ["a.JPG", "cafe\u{301}.wav", "caf\u{E9}.wav", "trip/day 1/clip.mp4", "trip/other.mov",
                                            "voice.opus"].map { Array($0.utf8) })
        #expect(seeds.map(\.type) == [.image, .audio, .audio, .video, .video, .audio])
        #expect(seeds.map(\.size) == [10, 7, 6, 20, 30, 40])
        #expect(seeds[3].sidecar == Data("GYROFLOW IMU LOG\n".utf8))
        #expect(seeds[4].sidecar == Data("GYROFLOW IMU LOG\nx\n".utf8))
        #expect(seeds[0].sidecar == nil && seeds[5].sidecar == nil)
        #expect(MediaSources.stem(of: MediaFileName("a.b/c")) == "a.b/c" && MediaSources.stem(of: MediaFileName("d/.x")) == "d/.x")
        #expect(throws: EmulatorError.self) { try MediaSources.scan(folder: root.appendingPathComponent("missing")) }
    }

    @Test func aManifestHoldsAnyNameAndGeneratedContent() throws {
        let folder = try TemporaryFolder("manifest")
        defer { folder.remove() }
        try Data(repeating: 9, count: 77).write(to: folder.url.appendingPathComponent("real.wav"))
        let manifest = folder.url.appendingPathComponent("m.json")
        let json = #"""
            {"files": [
              {"name": "../x.jpg", "type": "image", "size": 1000, "seed": 5},
              {"name": "/etc/x", "type": 2, "source": "real.wav"},
              {"name": "nul\u0000name.mp4", "type": "video", "size": 3000000, "sixaxis": true},
              {"name": "caf\u00e9.wav", "type": "audio", "size": 1},
              {"name": "cafe\u0301.wav", "type": "audio", "size": 2}
            ]}
            """#
        try Data(json.utf8).write(to: manifest)
        let seeds = try MediaSources.load(manifest: manifest)
        #expect(seeds.map(\.name.utf8) == ["../x.jpg", "/etc/x", "nul\u{0}name.mp4", "caf\u{E9}.wav", "cafe\u{301}.wav"].map { Array($0.utf8) })
        #expect(seeds[0].content == .generated(seed: 5) && seeds[0].size == 1000)
        #expect(seeds[1].size == 77 && seeds[1].type == .audio)
        #expect(seeds[2].sidecar != nil)
        let store = try MediaStore(seeds: seeds, capacity: 1 << 30)
        #expect(store.list().count == 5)
    }

    @Test(arguments: [
        #"{"files": [{"name": "", "type": "audio", "size": 1}]}"#,
        #"{"files": [{"name": "a", "type": "text", "size": 1}]}"#,
        #"{"files": [{"name": "a", "type": "audio"}]}"#,
        #"{"files": [{"name": "a", "type": "audio", "size": 1, "source": "x"}]}"#,
        #"{"files": [{"name": "a", "type": "audio", "size": 1}, {"name": "a", "type": "video", "size": 2}]}"#,
        #"{"files": [{"name": "a", "type": "audio", "size": 2000000000000}]}"#,
        #"{"files": [{"name": "a", "type": "audio", "source": "does-not-exist"}]}"#,
        #"[{"name": 5, "type": "audio", "size": 1}]"#,
        #"not json"#,
        // A sidecar that is a device: it reports size 0 and never ends (read, it took all memory).
        #"[{"name": "v.mp4", "type": "video", "size": 1, "sixaxis_source": "/dev/zero"}]"#,
        #"[{"name": "v.mp4", "type": "video", "size": 1, "sixaxis_source": "/dev/null"}]"#,
    ])
    func aBadManifestIsATypedError(json: String) throws {
        let folder = try TemporaryFolder("bad-manifest")
        defer { folder.remove() }
        let manifest = folder.url.appendingPathComponent("m.json")
        try Data(json.utf8).write(to: manifest)
        let error = try #require(throws: EmulatorError.self) { try MediaSources.load(manifest: manifest) }
        #expect(error.code == .invalidManifest)
    }

    @Test func aLongNameIsAcceptedUpToTheLimit() throws {
        let folder = try TemporaryFolder("long-manifest")
        defer { folder.remove() }
        let manifest = folder.url.appendingPathComponent("m.json")
        let long = String(repeating: "n", count: 4096)
        try Data(#"[{"name": "\#(long)", "type": "audio", "size": 3}]"#.utf8).write(to: manifest)
        #expect(try MediaSources.load(manifest: manifest).first?.name.text == long)
    }
}
