import AIBuds
import AIBudsAllInOne
import AIBudsFoundation
import AIBudsTestKit
import Foundation
import Synchronization
import Testing

@testable import AIBudsStabilization
import AIBudsSyntheticVideo

@Suite("Stabilization plugin")
struct StabilizationPluginTests {
    static func job(_ clip: SyntheticClip, output: String) -> VideoStabilizationJob {
        let model = MediaFileInfoModel(fileType: .video, fileName: "clip.mp4", baseUrl: "", containsSixAxisDebounceInfo: true)
        return VideoStabilizationJob(
            mediaFile: ImportedMediaFileModel(metadata: model, localFileURL: clip.video), sourceURL: clip.video,
            sixAxisDataURL: clip.gcsv, outputURL: clip.folder.appendingPathComponent(output))
    }

    @Test("AIBudsAllInOne's default stabilization plugin is the gyro EIS")
    func registeredByDefault() {
        #expect(AIBudsAllInOne.defaultVideoStabilizationPlugin() is GyroStabilizationPlugin)
        let registry = VideoStabilizationRegistry(plugin: AIBudsAllInOne.defaultVideoStabilizationPlugin())
        #expect(registry.isAvailable)
    }

    @Test("the plugin writes the stabilized copy, reports progress up to 1 and keeps the original")
    func writesCopy() async throws {
        let clip = try await SyntheticClip.make(name: "plugin", seconds: 1)
        defer { clip.remove() }
        let plugin = GyroStabilizationPlugin(lensProfile: clip.profile)
        let job = Self.job(clip, output: "clip.stabilized.mp4")
        let original = try Data(contentsOf: clip.video)
        let reports = Mutex<[Double]>([])
        try await plugin.stabilize(job) { value in reports.withLock { $0.append(value) } }
        let seen = reports.withLock { $0 }
        #expect(seen.last == 1 && zip(seen, seen.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(try Data(contentsOf: clip.video) == original)
        #expect(try VideoProbe.probe(job.outputURL).frameTimes.count == clip.frames)
    }

    @Test("cancelling stops within half a second and leaves no output")
    func cancels() async throws {
        let clip = try await SyntheticClip.make(name: "cancel", seconds: 2)
        defer { clip.remove() }
        let plugin = GyroStabilizationPlugin(lensProfile: clip.profile, settings: StabilizationSettings(encoder: EncoderSettings(preset: "medium")))
        let job = Self.job(clip, output: "clip.stabilized.mp4")
        let started = AsyncStream<Void>.makeStream()
        let task = Task {
            try await plugin.stabilize(job) { value in if value > 0.1 { started.continuation.yield() } }
        }
        for await _ in started.stream { break }
        let clock = ContinuousClock()
        let cancelled = clock.now
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(clock.now - cancelled < .milliseconds(500))
        #expect(!FileManager.default.fileExists(atPath: job.outputURL.path))
    }

    @Test("a missing or broken six-axis log is a typed error, not a crash")
    func badLog() async throws {
        let clip = try await SyntheticClip.make(name: "badlog", seconds: 0.5)
        defer { clip.remove() }
        let plugin = GyroStabilizationPlugin(lensProfile: clip.profile)
        var job = Self.job(clip, output: "out.mp4")
        try writeTestFile(Array("GYROFLOW IMU LOG\norientation,XYZ\n".utf8), to: clip.gcsv)
        await #expect(throws: GyroLogError.self) { try await plugin.stabilize(job) { _ in } }
        job.sixAxisDataURL = nil
        await #expect(throws: GyroLogError.self) { try await plugin.stabilize(job) { _ in } }
        #expect(!FileManager.default.fileExists(atPath: job.outputURL.path))
    }
}
