@testable import AIBudsStabilization
import AIBudsProcess
import AIBudsSyntheticVideo
import AIBudsTestKit
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `aibuds media import` from an emulator serving a real shaky video with its `.gcsv`: the
/// default plugin stabilizes it beside the original; `--no-stabilize` keeps the original only.
@Suite("media import stabilizes")
struct ImportStabilizesTests {
    /// Starts `aibuds emulator` serving `media`; returns the process and its address once announced.
    static func startEmulator(media: URL, runtime: URL, lensProfile: URL? = nil) async throws -> (ChildProcess, String) {
        let process = try ChildProcess(
            try StabilizeCommandTests.executable().path,
            ["emulator", "--profile", "glasses", "--name", "Stab Glasses", "--listen", "127.0.0.1:0", "--media", media.path]
                + (lensProfile.map { ["--lens-profile", $0.path] } ?? []),
            environment: ProcessInfo.processInfo.environment.merging(["XDG_RUNTIME_DIR": runtime.path]) { $1 },
            output: .discard, errors: .discard)
        let folder = runtime.appendingPathComponent("aibuds/devices")
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            for file in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            where file.hasPrefix("\(process.pid)-") && file.hasSuffix(".json") {
                if let data = try? Data(contentsOf: folder.appendingPathComponent(file)),
                    let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let address = object["address"] as? String
                {
                    return (process, address)
                }
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        process.terminate()
        throw CocoaError(.fileReadNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "the emulator did not announce itself"])
    }

    /// A camera unlike the plugin's default (the AIBuds glasses: f = 1100 px at 1920 wide, about
    /// 183 px at the clip's 320): f = 880 px at 640 wide, 440 px at 320, so a stabilizer that used its
    /// default lens would undo only about 40 % of the shake.
    static let deviceLens = LensProfile(
        calibrationWidth: 640, calibrationHeight: 480, focalLength: SIMD2(880, 880), principalPoint: SIMD2(320, 240),
        model: .opencvFisheye, coefficients: [0.05, -0.01, 0.002, 0], frameReadoutTime: 0.015, readoutDirection: .topToBottom)

    @Test("the import writes NAME.stabilized.mp4 beside the original through the device's lens profile, reported in --json; --no-stabilize does not")
    func importStabilizes() async throws {
        // Rendered through the device's own lens, which it serves (--lens-profile), not the plugin's default.
        let clip = try await SyntheticClip.make(name: "import", seconds: 1, profile: Self.deviceLens)
        defer { clip.remove() }
        let media = clip.folder.appendingPathComponent("media")
        try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: clip.video, to: media.appendingPathComponent("VID_1.mp4"))
        try FileManager.default.copyItem(at: clip.gcsv, to: media.appendingPathComponent("VID_1.mp4.gcsv"))
        let runtime = clip.folder.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        let (emulator, address) = try await Self.startEmulator(media: media, runtime: runtime, lensProfile: clip.lensJSON)
        defer { emulator.terminate() }
        let environment = ["XDG_RUNTIME_DIR": runtime.path, "XDG_DATA_HOME": runtime.path]

        let stabilizedFolder = clip.folder.appendingPathComponent("stabilized")
        let run = try await runProgram(
            try StabilizeCommandTests.executable(), ["media", "import", "--device", address, "--to", stabilizedFolder.path, "--all", "--json"],
            environment: environment)
        #expect(run.status == 0, "\(run.err)")
        let original = stabilizedFolder.appendingPathComponent("VID_1.mp4"), copy = stabilizedFolder.appendingPathComponent("VID_1.stabilized.mp4")
        #expect(FileManager.default.fileExists(atPath: original.path))
        #expect(FileManager.default.fileExists(atPath: copy.path))
        // The --json report names the stabilized copy.
        let report = try JSONSerialization.jsonObject(with: run.output) as? [String: Any]
        let entry = (report?["files"] as? [[String: Any]])?.first { $0["name"] as? String == "VID_1.mp4" }
        let stabilization = entry?["stabilization"] as? [String: Any]
        #expect(stabilization?["status"] as? String == "stabilized")
        #expect(stabilization?["path"] as? String == copy.path)
        if FileManager.default.fileExists(atPath: copy.path) {
            let before = try await StabilizationEndToEndTests.measure(original)
            let after = try await StabilizationEndToEndTests.measure(copy)
            let (jitterBefore, jitterAfter) = (GlobalMotionEstimator.jitter(before.shifts), GlobalMotionEstimator.jitter(after.shifts))
            print("media import stabilization: jitter \(jitterBefore) px -> \(jitterAfter) px")
            #expect(jitterAfter < jitterBefore * 0.25 && after.frames == before.frames && !after.darkBorder)
        }

        let plainFolder = clip.folder.appendingPathComponent("plain")
        let plain = try await runProgram(
            try StabilizeCommandTests.executable(),
            ["media", "import", "--device", address, "--to", plainFolder.path, "--all", "--no-stabilize", "--json"], environment: environment)
        #expect(plain.status == 0, "\(plain.err)")
        let plainReport = try JSONSerialization.jsonObject(with: plain.output) as? [String: Any]
        let plainEntry = (plainReport?["files"] as? [[String: Any]])?.first
        #expect((plainEntry?["stabilization"] as? [String: Any])?["status"] as? String == "disabled")
        #expect((plainEntry?["stabilization"] as? [String: Any])?["path"] == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: plainFolder.path).filter { !$0.hasPrefix(".") } == ["VID_1.mp4"])
    }
}
