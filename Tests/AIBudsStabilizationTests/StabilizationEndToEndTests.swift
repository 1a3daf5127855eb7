@testable import AIBudsStabilization
import AIBudsSyntheticVideo
import AIBudsTestKit
import Foundation
import Testing

/// Measures stabilization on rendered clips with known motion, with an estimate of the image
/// motion that knows nothing of the stabilizer.
@Suite("Stabilization end to end")
struct StabilizationEndToEndTests {
    /// Frame-to-frame shifts of a decoded video and whether any frame has a dark border.
    static func measure(_ url: URL) async throws -> (shifts: [SIMD2<Double>], frames: Int, darkBorder: Bool) {
        try await onOwnThread {
            let (frames, width, height) = try SyntheticVideoFiles.decodeLuma(url)
            let estimator = GlobalMotionEstimator(width: width, height: height)
            var shifts: [SIMD2<Double>] = []
            for index in 1..<frames.count { shifts.append(estimator.shift(from: frames[index - 1], to: frames[index])) }
            var dark = false
            for frame in frames {
                for x in 0..<width where frame[x] < 25 || frame[(height - 1) * width + x] < 25 { dark = true }
                for y in 0..<height where frame[y * width] < 25 || frame[y * width + width - 1] < 25 { dark = true }
            }
            return (shifts, frames.count, dark)
        }
    }

    @Test("a shaky clip comes out steady, borderless, with every frame and its audio")
    func shakeIsRemoved() async throws {
        let clip = try await SyntheticClip.make(name: "e2e", audio: true)
        defer { clip.remove() }
        let output = clip.folder.appendingPathComponent("clip.stabilized.mp4")
        let log = try GyroLogParser.parse(contentsOf: clip.gcsv)
        let profile = try LensProfileParser.parse(contentsOf: clip.lensJSON)
        let report = try await onOwnThread {
            try GyroStabilizer().stabilize(input: clip.video, log: log, profile: profile, output: output)
        }
        let before = try await Self.measure(clip.video)
        let after = try await Self.measure(output)
        let jitterBefore = GlobalMotionEstimator.jitter(before.shifts)
        let jitterAfter = GlobalMotionEstimator.jitter(after.shifts)
        let panBefore = before.shifts.reduce(SIMD2<Double>.zero, +) / Double(before.shifts.count)
        let panAfter = after.shifts.reduce(SIMD2<Double>.zero, +) / Double(after.shifts.count)
        print("stabilization e2e: jitter \(jitterBefore) px -> \(jitterAfter) px, mean motion \(panBefore) -> \(panAfter) px/frame, zoom \(report.zoomRange)")
        #expect(jitterBefore > 1.0, "the rendered clip shakes")
        #expect(jitterAfter < jitterBefore * 0.25, "residual shake \(jitterAfter) px against \(jitterBefore) px")
        #expect(abs(panBefore.x) > 0.3, "the clip pans")
        #expect(((panAfter - panBefore) * (panAfter - panBefore)).sum().squareRoot() < 0.25, "the pan is kept")
        #expect(after.frames == clip.frames && report.frames == clip.frames)
        #expect(!after.darkBorder)
        #expect(try VideoProbe.probe(output).audioStreamCount == 1)
        #expect(try VideoProbe.probe(output).frameTimes == VideoProbe.probe(clip.video).frameTimes)
    }

    @Test("HEVC in, HEVC out (libx265), steadier, every frame kept")
    func hevcStaysHEVC() async throws {
        let clip = try await SyntheticClip.make(name: "hevc", seconds: 1, encoder: "libx265")
        defer { clip.remove() }
        #expect(try VideoProbe.probe(clip.video).isHEVC)
        let output = clip.folder.appendingPathComponent("clip.stabilized.mp4")
        let log = try GyroLogParser.parse(contentsOf: clip.gcsv)
        _ = try await onOwnThread { try GyroStabilizer().stabilize(input: clip.video, log: log, profile: clip.profile, output: output) }
        let info = try VideoProbe.probe(output)
        #expect(info.isHEVC && info.frameTimes.count == clip.frames)
        let before = GlobalMotionEstimator.jitter(try await Self.measure(clip.video).shifts)
        let after = GlobalMotionEstimator.jitter(try await Self.measure(output).shifts)
        print("stabilization hevc: jitter \(before) px -> \(after) px")
        #expect(after < before * 0.25)
    }
}
