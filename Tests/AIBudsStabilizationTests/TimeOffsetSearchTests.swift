@testable import AIBudsStabilization
import AIBudsSyntheticVideo
import AIBudsTestKit
import Foundation
import Testing

/// The gyro–video time search on rendered clips whose six-axis log is moved off the video's clock
/// by a known amount.
@Suite("Gyro-video time offset")
struct TimeOffsetSearchTests {
    @Test("the search finds an injected offset to within 2 ms, and none in a log that is right")
    func findsAnInjectedOffset() async throws {
        let clip = try await SyntheticClip.make(name: "sync", seconds: 2)
        defer { clip.remove() }
        let log = try GyroLogParser.parse(contentsOf: clip.gcsv)
        for injected in [0.0, 0.083, -0.047] {
            let found = try await onOwnThread { try GyroTimeOffset.estimate(video: clip.video, log: log.shifted(by: injected)) }
            let result = try #require(found)
            print("time offset: injected \(injected) s, found \(result.offset) s, similarity \(result.similarity) (at 0: \(result.similarityAtZero))")
            #expect(abs(result.offset - injected) < 0.002)
            #expect(result.similarity > 0.8)
            #expect(result.shouldApply == (injected != 0) || abs(result.offset) <= 0.002)
        }
    }

    @Test("a clip whose log is 100 ms late is stabilized as well as with a right log; without the search it is not")
    func stabilizesAClipWhoseLogIsOff() async throws {
        let clip = try await SyntheticClip.make(name: "sync-e2e", seconds: 1.5)
        defer { clip.remove() }
        let late = try GyroLogParser.parse(contentsOf: clip.gcsv).shifted(by: 0.1)
        let searched = clip.folder.appendingPathComponent("searched.mp4"), trusted = clip.folder.appendingPathComponent("trusted.mp4")
        let profile = clip.profile
        let report = try await onOwnThread {
            try GyroStabilizer().stabilize(input: clip.video, log: late, profile: profile, output: searched)
        }
        _ = try await onOwnThread {
            try GyroStabilizer(settings: StabilizationSettings(searchesTimeOffset: false))
                .stabilize(input: clip.video, log: late, profile: profile, output: trusted)
        }
        #expect(abs(report.appliedOffset - 0.1) < 0.002)
        let before = GlobalMotionEstimator.jitter(try await StabilizationEndToEndTests.measure(clip.video).shifts)
        let withSearch = GlobalMotionEstimator.jitter(try await StabilizationEndToEndTests.measure(searched).shifts)
        let withoutSearch = GlobalMotionEstimator.jitter(try await StabilizationEndToEndTests.measure(trusted).shifts)
        print("time offset e2e: jitter \(before) px; log 100 ms late: \(withSearch) px with the search, \(withoutSearch) px without")
        #expect(withSearch < before * 0.25)
        #expect(withoutSearch > withSearch * 2)
    }
}
