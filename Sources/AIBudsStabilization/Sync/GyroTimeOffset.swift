import Foundation

/// Finds how far the six-axis log's clock is off the video's, as Gyroflow's synchronisation does
/// (image motion against gyro rates), written for this module: the camera's rotation between
/// consecutive frames predicts how the image moves near its centre (a rotation ω·dt moves it by
/// f·(−ω_y, ω_x)·dt in the camera frame of this module), so the offset is the one at which the
/// predicted motion matches the measured motion best.
///
/// The match is the cosine similarity of the measured frame-to-frame shifts and the predicted
/// ones over all frame pairs (the focal length only scales the prediction, so it drops out); the
/// search steps 1 ms over the range, then refines by 0.05 ms around the best step.
public struct GyroTimeOffset: Sendable, Equatable {
    /// How much later the log's times are than the video's (log time = video time + offset), in
    /// seconds; subtract it from the log's times to align them.
    public var offset: Double
    /// The similarity at ``offset`` (1: the motions agree perfectly; below about 0.5 the image
    /// motion does not follow the gyro and the result is not used).
    public var similarity: Double
    /// The similarity at offset 0 (the log taken as it is).
    public var similarityAtZero: Double
    /// Frame pairs measured.
    public var pairs: Int

    /// The least similarity at which the found offset is trusted.
    public static let trustedSimilarity = 0.5

    /// Whether the log should be shifted: the match is trusted and the offset is over 2 ms (the
    /// search's own bias on rendered clips is about 1 ms; 2 ms misplaces an 8 Hz shake by a tenth).
    public var shouldApply: Bool { similarity >= Self.trustedSimilarity && abs(offset) > 0.002 }

    /// Measures the image motion of the first `frames` frames of `video` and searches offsets
    /// within ±`range` seconds against `log`.
    public static func estimate(video: URL, log: GyroLog, frames: Int = 150, range: Double = 0.5) throws -> GyroTimeOffset? {
        var times: [Double] = []
        var profiles: [ProjectionMotion.Profiles] = []
        do {
            // On this thread, as the transcode that follows decodes: frames that decoder threads
            // allocated stayed in their malloc arenas and raised the run's peak by 8 MB at 1080p.
            try VideoFrameReader.forEachFrame(video, decodingThreads: 1) { time, planes in
                guard times.count < frames else { throw EnoughFrames() }
                times.append(time)
                profiles.append(ProjectionMotion.profiles(planes[0]))
            }
        } catch is EnoughFrames {}
        let motion = ProjectionMotion()
        var shifts: [SIMD2<Double>] = []
        for index in profiles.indices.dropFirst() { shifts.append(motion.shift(from: profiles[index - 1], to: profiles[index])) }
        return search(frameTimes: times, shifts: shifts, samples: log.samples, range: range)
    }

    private struct EnoughFrames: Error {}

    /// The best offset for measured `shifts` between consecutive frames at `frameTimes`, nil when
    /// there is nothing to compare (no motion, no samples over the frames).
    static func search(frameTimes: [Double], shifts: [SIMD2<Double>], samples: [ImuSample], range: Double) -> GyroTimeOffset? {
        guard shifts.count >= 4, frameTimes.count == shifts.count + 1, samples.count >= 2 else { return nil }
        let integral = RateIntegral(samples)
        let measuredEnergy = shifts.reduce(0.0) { $0 + ($1 * $1).sum() }
        guard measuredEnergy > 0 else { return nil }
        // The similarity at one offset, over the pairs the log covers (nil when it covers under half).
        func similarity(_ offset: Double) -> Double? {
            var dot = 0.0, predicted = 0.0, measured = 0.0, used = 0
            for (index, shift) in shifts.enumerated() {
                guard let angle = integral.angle(from: frameTimes[index] + offset, to: frameTimes[index + 1] + offset) else { continue }
                let expected = SIMD2(-angle.y, angle.x)
                dot += (expected * shift).sum()
                predicted += (expected * expected).sum()
                measured += (shift * shift).sum()
                used += 1
            }
            guard used * 2 >= shifts.count, predicted > 0, measured > 0 else { return nil }
            return dot / (predicted * measured).squareRoot()
        }
        var best: (offset: Double, value: Double)?
        let steps = Int((range / 0.001).rounded())
        for step in -steps...steps {
            let offset = Double(step) * 0.001
            if let value = similarity(offset), value > best?.value ?? -.infinity { best = (offset, value) }
        }
        guard var found = best else { return nil }
        for step in -20...20 {
            let offset = found.offset + Double(step) * 0.00005
            if let value = similarity(offset), value > found.value { found = (offset, value) }
        }
        return GyroTimeOffset(offset: found.offset, similarity: found.value, similarityAtZero: similarity(0) ?? 0, pairs: shifts.count)
    }
}

/// The gyro's rates integrated over time (trapezoids), so that the rotation between any two
/// instants is a difference of two lookups.
struct RateIntegral: Sendable {
    private let times: [Double]
    private let rates: [SIMD3<Double>]
    private let sums: [SIMD3<Double>]

    init(_ samples: [ImuSample]) {
        times = samples.map(\.time)
        rates = samples.map(\.gyro)
        var sums = [SIMD3<Double>](repeating: .zero, count: samples.count)
        for index in samples.indices.dropFirst() {
            sums[index] = sums[index - 1] + (rates[index] + rates[index - 1]) * (0.5 * (times[index] - times[index - 1]))
        }
        self.sums = sums
    }

    /// The integral from the first sample to `time`; nil outside the samples.
    func value(at time: Double) -> SIMD3<Double>? {
        guard let first = times.first, let last = times.last, time >= first, time <= last else { return nil }
        let (low, high, fraction) = times.bracket(time)
        let rate = rates[low] + (rates[high] - rates[low]) * fraction
        return sums[low] + (rates[low] + rate) * (0.5 * (time - times[low]))
    }

    /// The rotation angles (small-angle, rad about the camera axes) from `start` to `end`.
    func angle(from start: Double, to end: Double) -> SIMD3<Double>? {
        guard let a = value(at: start), let b = value(at: end) else { return nil }
        return b - a
    }
}

extension GyroLog {
    /// The log with every sample's time moved by `seconds` (negative: earlier).
    public func shifted(by seconds: Double) -> GyroLog {
        var log = self
        log.samples = samples.map { ImuSample(time: $0.time + seconds, gyro: $0.gyro, accel: $0.accel) }
        return log
    }
}
