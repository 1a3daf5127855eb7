import Foundation

/// Stabilizes one video file with its six-axis log and lens profile: plan, then one decode–warp–
/// encode pass. Synchronous and CPU-bound: call it off Swift's cooperative pool (the plugin and the
/// command run it on a thread of its own).
public struct GyroStabilizer: Sendable {
    /// Smoothing, lens and encoder choices for the next `stabilize` call; change between calls.
    public var settings: StabilizationSettings

    /// A stabilizer that holds no file or decoder until it runs; the default settings are the
    /// adaptive smoother at smoothness 0.5, zoom up to 2.5× and `veryfast` CRF 20.
    public init(settings: StabilizationSettings = StabilizationSettings()) {
        self.settings = settings
    }

    /// What a run measured.
    public struct Report: Sendable {
        /// Frames written (as many as were decoded).
        public var frames: Int
        /// The smallest and largest zoom used.
        public var zoomRange: ClosedRange<Double>
        /// What the gyro–video time search found (nil when it was off or found nothing to compare).
        public var timeOffset: GyroTimeOffset?
        /// The seconds subtracted from the log's times (0 when the log was taken as it is).
        public var appliedOffset: Double
    }

    /// Writes the stabilized `input` to `output` (removed again on failure). `shouldStop` is
    /// polled every frame (then `CancellationError` is thrown); `progress` hears 0.0–1.0.
    @discardableResult
    public func stabilize(
        input: URL, log: GyroLog, profile: LensProfile, output: URL, shouldStop: () -> Bool = { false },
        progress: (Double) -> Void = { _ in }
    ) throws -> Report {
        let info = try VideoProbe.probe(input)
        if shouldStop() { throw CancellationError() }
        // The log's clock checked against the image motion of the first two seconds.
        let found = settings.searchesTimeOffset
            ? try GyroTimeOffset.estimate(video: input, log: log, frames: max(30, Int(info.frameRate * 2))) : nil
        if shouldStop() { throw CancellationError() }
        let applied = found.map { $0.shouldApply ? $0.offset : 0 } ?? 0
        let plan = StabilizationPlan(info: info, log: applied == 0 ? log : log.shifted(by: -applied), profile: profile, settings: settings)
        progress(0.02)
        let warper = FrameWarper()
        let total = Double(max(1, info.frameTimes.count))
        var frames = 0
        do {
            try VideoTranscoder(settings: settings.encoder).run(
                input: input, output: output, shouldStop: shouldStop,
                progress: { index in
                    frames = index + 1
                    progress(min(1, 0.02 + 0.98 * Double(index + 1) / total))
                },
                transform: { frame in
                    let map = WarpMap(plan.correction(at: frame.time), width: plan.width, height: plan.height)
                    warper.warp(map, source: frame.source, destination: frame.destination)
                })
        } catch {
            try? FileManager.default.removeItem(at: output)
            throw error
        }
        return Report(
            frames: frames, zoomRange: (plan.zooms.min() ?? 1)...(plan.zooms.max() ?? 1), timeOffset: found, appliedOffset: applied)
    }
}
