import Foundation

/// A unit quaternion used as a 3D rotation (`w` scalar part, `v` vector part), in double precision.
///
/// `rotate(_:)` maps a vector of the rotated frame into the reference frame: an orientation
/// `q` of the camera maps camera-frame rays to world rays.
public struct Quaternion: Sendable, Equatable {
    /// The scalar part: cos(angle / 2).
    public var w: Double
    /// The vector part: sin(angle / 2) × axis.
    public var v: SIMD3<Double>

    /// The rotation by nothing.
    public static let identity = Quaternion(w: 1, v: .zero)

    /// Creates a quaternion from its parts (not normalised).
    public init(w: Double, v: SIMD3<Double>) {
        self.w = w
        self.v = v
    }

    /// The rotation about `rotationVector`'s direction by its length in radians (the exponential map).
    public init(rotationVector r: SIMD3<Double>) {
        let angle = (r * r).sum().squareRoot()
        if angle < 1e-12 {
            self.init(w: 1, v: r * 0.5)
            self = normalized
        } else {
            self.init(w: cos(angle / 2), v: r * (sin(angle / 2) / angle))
        }
    }

    /// The shortest rotation that turns unit vector `from` into unit vector `to`.
    public init(from: SIMD3<Double>, to: SIMD3<Double>) {
        let d = (from * to).sum()
        if d < -0.999_999 {
            // Opposite: any perpendicular axis.
            var axis = Quaternion.cross(SIMD3(1, 0, 0), from)
            if (axis * axis).sum() < 1e-6 { axis = Quaternion.cross(SIMD3(0, 1, 0), from) }
            self.init(rotationVector: axis / (axis * axis).sum().squareRoot() * Double.pi)
        } else {
            self.init(w: 1 + d, v: Quaternion.cross(from, to))
            self = normalized
        }
    }

    /// The rotation whose matrix has these columns (an orthonormal right-handed basis).
    public init(columns x: SIMD3<Double>, _ y: SIMD3<Double>, _ z: SIMD3<Double>) {
        let trace = x.x + y.y + z.z
        if trace > 0 {
            let s = (trace + 1).squareRoot() * 2
            self.init(w: s / 4, v: SIMD3((y.z - z.y) / s, (z.x - x.z) / s, (x.y - y.x) / s))
        } else if x.x > y.y && x.x > z.z {
            let s = (1 + x.x - y.y - z.z).squareRoot() * 2
            self.init(w: (y.z - z.y) / s, v: SIMD3(s / 4, (y.x + x.y) / s, (z.x + x.z) / s))
        } else if y.y > z.z {
            let s = (1 + y.y - x.x - z.z).squareRoot() * 2
            self.init(w: (z.x - x.z) / s, v: SIMD3((y.x + x.y) / s, s / 4, (z.y + y.z) / s))
        } else {
            let s = (1 + z.z - x.x - y.y).squareRoot() * 2
            self.init(w: (x.y - y.x) / s, v: SIMD3((z.x + x.z) / s, (z.y + y.z) / s, s / 4))
        }
        self = normalized
    }

    /// The cross product of two vectors.
    public static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }

    /// The same rotation scaled to unit length.
    public var normalized: Quaternion {
        let n = (w * w + (v * v).sum()).squareRoot()
        return n > 0 ? Quaternion(w: w / n, v: v / n) : .identity
    }

    /// The inverse rotation.
    public var conjugate: Quaternion { Quaternion(w: w, v: -v) }

    /// The rotation `self` after `other` (applied to a vector: `other` first).
    public static func * (lhs: Quaternion, rhs: Quaternion) -> Quaternion {
        Quaternion(
            w: lhs.w * rhs.w - (lhs.v * rhs.v).sum(),
            v: lhs.w * rhs.v + rhs.w * lhs.v + cross(lhs.v, rhs.v))
    }

    /// `vector` rotated by this rotation.
    public func rotate(_ vector: SIMD3<Double>) -> SIMD3<Double> {
        let t = 2 * Quaternion.cross(v, vector)
        return vector + w * t + Quaternion.cross(v, t)
    }

    /// The rotation vector (axis × angle, angle in 0...π): the logarithm map.
    public var rotationVector: SIMD3<Double> {
        var q = self
        if q.w < 0 { q = Quaternion(w: -q.w, v: -q.v) }
        let s = (q.v * q.v).sum().squareRoot()
        if s < 1e-12 { return q.v * 2 }
        let angle = 2 * atan2(s, q.w)
        return q.v * (angle / s)
    }

    /// The angle of this rotation in radians (0...π).
    public var angle: Double { (rotationVector * rotationVector).sum().squareRoot() }

    /// The rotation a fraction `t` of the way from `a` to `b` along the shortest arc.
    public static func slerp(_ a: Quaternion, _ b: Quaternion, _ t: Double) -> Quaternion {
        let delta = a.conjugate * b
        return (a * Quaternion(rotationVector: delta.rotationVector * t)).normalized
    }

    /// The rotation's matrix as three columns.
    public var columns: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>) {
        (rotate(SIMD3(1, 0, 0)), rotate(SIMD3(0, 1, 0)), rotate(SIMD3(0, 0, 1)))
    }
}
