import AIBudsStabilization
import Foundation

/// A head-worn-like camera path with known ground truth: a slow pan about the world's vertical
/// plus a shake of a few degrees at 3–8 Hz on all three axes.
public struct SyntheticMotion: Sendable {
    /// Pan speed in rad/s about the world's up axis.
    public var panRate = 0.08
    /// Shake amplitude scale (1 = about 1.5° per axis).
    public var shake = 1.0

    /// Creates a path.
    public init(panRate: Double = 0.08, shake: Double = 1.0) {
        self.panRate = panRate
        self.shake = shake
    }

    /// Camera-to-world orientation at `time` (camera frame: x right, y down, z forward; world y down).
    public func orientation(at time: Double) -> Quaternion {
        let degree = Double.pi / 180
        let pan = Quaternion(rotationVector: SIMD3(0, -panRate * time, 0))
        let wobble = SIMD3(
            1.4 * sin(2 * .pi * 5.3 * time + 0.4) + 0.6 * sin(2 * .pi * 7.9 * time),
            1.6 * sin(2 * .pi * 4.1 * time + 1.0) + 0.5 * sin(2 * .pi * 6.7 * time + 2),
            0.9 * sin(2 * .pi * 3.3 * time + 2.0)) * (degree * shake)
        return pan * Quaternion(rotationVector: wobble)
    }

    /// The body-frame angular rate at `time` (rad/s), by central difference.
    public func bodyRate(at time: Double) -> SIMD3<Double> {
        let h = 1e-5
        return (orientation(at: time - h).conjugate * orientation(at: time + h)).rotationVector / (2 * h)
    }
}
