import AIBudsEmulator
import AIBudsTestKit
import Foundation
import Testing

/// Recordings named equal but for Unicode normalisation are two device files (docs/protocol.md):
/// `aibuds recordings download` over real sockets gets both, each with its own bytes.
@Suite(.timeLimit(.minutes(2))) struct TopStepTwinNamesTests {
    static let nfc = "REC_caf\u{E9}.opus"
    static let nfd = "REC_cafe\u{301}.opus"

    @Test func bothTwinsDownloadAsTwoVerifiedFiles() async throws {
        #expect(Self.nfc == Self.nfd)
        let watch = try LoopbackEmulator.watch(files: [
            .generated(Self.nfc, type: .audio, size: 30_000, seed: 1),
            .generated(Self.nfd, type: .audio, size: 40_000, seed: 2),
        ])
        defer { watch.stop() }
        let device = "udp://\(watch.address)"
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("ts-twins-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }

        let all = root.appendingPathComponent("all").path
        let download = try await aibuds(["recordings", "download", "--device", device, "--to", all, "--all"])
        #expect(download.status == 0, "\(download.err)")
        let paths = download.out.split(separator: "\n").compactMap { $0.split(separator: "\t").last.map(String.init) }
        #expect(paths.count == 2)
        #expect(Set(paths.map { Array($0.utf8) }).count == 2, "two distinct local files: \(paths)")
        var contents = Set<Data>()
        for path in paths {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            let name = URL(fileURLWithPath: path).lastPathComponent
            #expect(data == (try watch.content(of: name)), "\(name.unicodeScalars.map(\.value))")
            contents.insert(data)
        }
        #expect(contents.count == 2)

        // Named on the command line, each twin selects its own file.
        for (name, size) in [(Self.nfd, 40_000), (Self.nfc, 30_000)] {
            let folder = root.appendingPathComponent("one-\(size)").path
            let one = try await aibuds(["recordings", "download", "--device", device, "--to", folder, name])
            #expect(one.status == 0, "\(one.err)")
            let path = try #require(one.out.split(separator: "\n").first?.split(separator: "\t").last.map(String.init))
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == (try watch.content(of: name)))
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)).count == size)
        }
    }
}
