@testable import AIBudsStabilization
import AIBudsSyntheticVideo
import AIBudsTestKit
import Foundation
import Testing

/// `aibuds stabilize`, run as a program.
@Suite("aibuds stabilize")
struct StabilizeCommandTests {
    /// The `aibuds` executable built next to the test bundle.
    static func executable() throws -> URL { try requireBuiltProduct("aibuds") }

    @Test("stabilizes a clip with its sidecars and reports JSON; refuses bad options and bad logs")
    func stabilizes() async throws {
        let clip = try await SyntheticClip.make(name: "cli", seconds: 1)
        defer { clip.remove() }
        let output = clip.folder.appendingPathComponent("steady.mp4")
        let result = try await runProgram(
            try Self.executable(),
            ["stabilize", clip.video.path, "--gyro", clip.gcsv.path, "--lens", clip.lensJSON.path, "-o", output.path, "--smoothness", "0.7",
             "--horizon-lock", "--crf", "23", "--json"])
        #expect(result.status == 0, "\(result.err)")
        let document = try #require(try JSONSerialization.jsonObject(with: result.output) as? [String: Any])
        #expect(document["frames"] as? Int == clip.frames)
        #expect(try VideoProbe.probe(output).frameTimes.count == clip.frames)

        // The default output name beside the video, found sidecar, and no overwriting.
        let again = try await runProgram(try Self.executable(), ["stabilize", clip.video.path, "--lens", clip.lensJSON.path, "--fixed"])
        #expect(again.status == 0, "\(again.err)")
        #expect(FileManager.default.fileExists(atPath: clip.folder.appendingPathComponent("clip.stabilized.mp4").path))
        let third = try await runProgram(try Self.executable(), ["stabilize", clip.video.path, "--lens", clip.lensJSON.path])
        #expect(third.status == 1 && third.err.contains("not overwriting"))

        for bad in [["--smoothness", "2"], ["--crf", "99"], ["--preset", "warp9"], ["--fixed", "--smoothness", "0.3"], ["--bogus"]] {
            let refused = try await runProgram(try Self.executable(), ["stabilize", clip.video.path] + bad)
            #expect(refused.status == 64, "\(bad): \(refused.err)")
        }
        try writeTestFile(Array("GYROFLOW IMU LOG\nbroken\n".utf8), to: clip.gcsv)
        let broken = try await runProgram(try Self.executable(), ["stabilize", clip.video.path, "-o", clip.folder.appendingPathComponent("x.mp4").path])
        #expect(broken.status == 1 && broken.err.contains("\(clip.gcsv.path) line 2"), "\(broken.err)")
        // A device is refused by what it is, not by a permission error.
        let device = try await runProgram(try Self.executable(), ["stabilize", clip.video.path, "--gyro", "/dev/zero", "-o", clip.folder.appendingPathComponent("y.mp4").path])
        #expect(device.status == 1 && device.err.contains("/dev/zero: is not a regular file"), "\(device.err)")
    }
}
