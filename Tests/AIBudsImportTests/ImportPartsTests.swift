import AIBudsFoundation
import Foundation
import Testing

@testable import AIBuds
@testable import AIBudsImport

@Suite("Import parts: speed, stabilization decisions")
struct ImportPartsTests {
    @Test func speedIsSmoothedAndDecaysWhenStalled() throws {
        var meter = TransferSpeedMeter(smoothing: 0.5)
        let start = ContinuousClock.now
        #expect(meter.sample(totalBytes: 0, at: start) == nil)
        #expect(meter.sample(totalBytes: 1000, at: start + .milliseconds(250)) == 4000)
        // 2000 bytes in the next 250 ms is 8000 B/s; half-way from 4000 is 6000.
        #expect(meter.sample(totalBytes: 3000, at: start + .milliseconds(500)) == 6000)
        // Nothing arrives: the speed halves each tick.
        #expect(meter.sample(totalBytes: 3000, at: start + .milliseconds(750)) == 3000)
        #expect(meter.sample(totalBytes: 3000, at: start + .milliseconds(1000)) == 1500)
        #expect(meter.bytesPerSecond == 1500)
        // A sample that does not move time forward is ignored.
        #expect(meter.sample(totalBytes: 9000, at: start + .milliseconds(1000)) == nil)
    }

    final class NoopPlugin: VideoStabilizationPlugin {
        let name = "noop"
        func stabilize(_ job: VideoStabilizationJob, progress: @escaping @Sendable (Double) -> Void) async throws {}
    }

    @Test func stabilizationDecisionFollowsRegistryAndSixAxisData() {
        let sixAxis = MediaFileInfoModel(fileType: .video, fileName: "v.mp4", baseUrl: "", containsSixAxisDebounceInfo: true)
        let plain = MediaFileInfoModel(fileType: .video, fileName: "p.mp4", baseUrl: "")
        let registry = VideoStabilizationRegistry()
        #expect(!registry.isAvailable)
        #expect(registry.decision(for: sixAxis).settledStatus == .pluginUnavailable)
        #expect(registry.decision(for: plain).settledStatus == .skipped)
        registry.plugin = NoopPlugin()
        #expect(registry.isAvailable)
        #expect(registry.decision(for: sixAxis).settledStatus == nil)
        #expect(registry.decision(for: plain).settledStatus == .skipped)
        registry.isDisabled = true
        #expect(!registry.isAvailable)
        #expect(registry.decision(for: sixAxis).settledStatus == .disabled)
    }
}

extension StabilizationDecision {
    /// The final status, or `nil` when the plugin runs.
    var settledStatus: VideoStabilizationStatus? {
        if case .settle(let status) = self { return status }
        return nil
    }
}
