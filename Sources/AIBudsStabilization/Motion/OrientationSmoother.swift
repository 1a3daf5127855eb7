import Foundation

/// Turns the camera's measured orientation track into the virtual (stabilized) camera's track.
public struct OrientationSmoother: Sendable {
    /// The smoothing mode.
    public var mode: SmoothingMode
    /// Whether the virtual camera keeps the horizon level (no roll against gravity).
    public var horizonLock: Bool

    /// Smooths camera orientations as `mode` says (adaptive by default, keeping pans and turns);
    /// with `horizonLock`, roll is taken out entirely.
    public init(mode: SmoothingMode = .adaptive(smoothness: 0.5), horizonLock: Bool = false) {
        self.mode = mode
        self.horizonLock = horizonLock
    }

    /// The longest time constant of the adaptive mode for `smoothness` (clamped to 0...1).
    static func maximumTimeConstant(smoothness: Double) -> Double {
        0.15 + 1.85 * min(1, max(0, smoothness.isFinite ? smoothness : 0.5))
    }

    /// The virtual camera's track at the same times as `track`.
    public func smooth(_ track: OrientationTrack) -> OrientationTrack {
        var smoothed: OrientationTrack
        switch mode {
        case .fixed:
            let mean = Self.mean(track.orientations)
            smoothed = track.map { _ in mean }
        case .timeConstant(let seconds):
            let tau = max(0.001, seconds.isFinite ? seconds : 0.5)
            let padded = ReflectedTrack(track, padding: 3 * tau)
            smoothed = padded.unpadded(Self.zeroPhase(padded.track, timeConstants: [Double](repeating: tau, count: padded.track.times.count)))
        case .adaptive(let smoothness):
            let maximum = Self.maximumTimeConstant(smoothness: smoothness)
            let padded = ReflectedTrack(track, padding: 3 * maximum)
            smoothed = padded.unpadded(
                Self.zeroPhase(padded.track, timeConstants: Self.adaptiveTimeConstants(padded.track, maximum: maximum)))
        }
        if horizonLock { smoothed = smoothed.map(Self.levelled) }
        return smoothed
    }

    /// Per-sample time constants: long while the 0.3 s mean angular velocity is low, short during turns.
    static func adaptiveTimeConstants(_ track: OrientationTrack, maximum: Double) -> [Double] {
        let count = track.times.count
        guard count > 1 else { return [maximum] }
        var velocity = [SIMD3<Double>](repeating: .zero, count: count)
        for index in 1..<count {
            let dt = track.times[index] - track.times[index - 1]
            guard dt > 0 else { continue }
            let delta = track.orientations[index] * track.orientations[index - 1].conjugate
            velocity[index] = delta.rotationVector / dt
        }
        velocity[0] = velocity[1]
        let averaged = zeroPhaseVectors(velocity, times: track.times, timeConstant: 0.3)
        let reference = 0.5  // rad/s (about 29°/s): a turn this fast halves the time constant.
        return averaged.map { vector in
            let speed = (vector * vector).sum().squareRoot() / reference
            return max(0.05, maximum / (1 + speed * speed))
        }
    }

    /// Forward then backward exponential smoothing along the shortest arc (no lag overall).
    static func zeroPhase(_ track: OrientationTrack, timeConstants: [Double]) -> OrientationTrack {
        let forward = forwardPass(track, timeConstants: timeConstants)
        return OrientationTrack(times: track.times, orientations: backwardPass(forward, times: track.times, timeConstants: timeConstants))
    }

    /// The forward (causal) exponential pass: each orientation moves from the previous result
    /// toward the sample by `1 - exp(-dt / τ)`; the first is the track's own.
    static func forwardPass(_ track: OrientationTrack, timeConstants: [Double]) -> [Quaternion] {
        let times = track.times
        var forward = track.orientations
        for index in 1..<max(1, forward.count) {
            let alpha = 1 - exp(-(times[index] - times[index - 1]) / timeConstants[index])
            forward[index] = Quaternion.slerp(forward[index - 1], track.orientations[index], alpha)
        }
        return forward
    }

    /// The backward pass over a forward pass's result, from its last orientation.
    static func backwardPass(_ forward: [Quaternion], times: [Double], timeConstants: [Double]) -> [Quaternion] {
        var backward = forward
        for index in stride(from: backward.count - 2, through: 0, by: -1) {
            let alpha = 1 - exp(-(times[index + 1] - times[index]) / timeConstants[index])
            backward[index] = Quaternion.slerp(backward[index + 1], forward[index], alpha)
        }
        return backward
    }

    /// The same forward–backward smoother for vectors.
    static func zeroPhaseVectors(_ values: [SIMD3<Double>], times: [Double], timeConstant: Double) -> [SIMD3<Double>] {
        var forward = values
        for index in 1..<max(1, values.count) {
            let alpha = 1 - exp(-(times[index] - times[index - 1]) / timeConstant)
            forward[index] = forward[index - 1] + (values[index] - forward[index - 1]) * alpha
        }
        var backward = forward
        for index in stride(from: values.count - 2, through: 0, by: -1) {
            let alpha = 1 - exp(-(times[index + 1] - times[index]) / timeConstant)
            backward[index] = backward[index + 1] + (forward[index] - backward[index + 1]) * alpha
        }
        return backward
    }

    /// The normalised sum of the orientations, each flipped into the first one's hemisphere.
    static func mean(_ orientations: [Quaternion]) -> Quaternion {
        guard let first = orientations.first else { return .identity }
        var w = 0.0
        var v = SIMD3<Double>.zero
        for q in orientations {
            let sign: Double = (q.w * first.w + (q.v * first.v).sum()) < 0 ? -1 : 1
            w += q.w * sign
            v += q.v * sign
        }
        return Quaternion(w: w, v: v).normalized
    }

    /// `q` turned about its own optical axis so that its x axis (image right) is horizontal;
    /// unchanged when the camera looks (nearly) straight up or down.
    static func levelled(_ q: Quaternion) -> Quaternion {
        let forward = q.rotate(SIMD3(0, 0, 1))
        let down = -MahonyOrientationFilter.worldUp
        var right = Quaternion.cross(down, forward)
        let length = (right * right).sum().squareRoot()
        guard length > 0.05 else { return q }
        right /= length
        let imageDown = Quaternion.cross(forward, right)
        return Quaternion(columns: right, imageDown, forward)
    }
}
