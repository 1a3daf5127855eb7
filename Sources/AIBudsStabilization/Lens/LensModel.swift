import Foundation

/// A calibrated lens at one image size: projects camera rays to distorted pixels and back.
///
/// Rays are in the camera frame (x right, y down, z forward); pixels have (0, 0) at the top-left
/// corner of the top-left pixel's centre, as OpenCV's camera matrix does.
public struct LensModel: Sendable, Equatable {
    /// The distortion model.
    public let model: LensDistortionModel
    /// Focal lengths in pixels.
    public let focalLength: SIMD2<Double>
    /// The principal point in pixels.
    public let principalPoint: SIMD2<Double>
    /// The coefficients, padded with zeros to eight.
    private let k: [Double]
    /// The largest incidence angle (fisheye) or normalised radius (standard) up to which the
    /// distortion grows monotonically, so that projection is one-to-one.
    private let limit: Double

    /// A lens at the video's resolution: `focalLength` and `principalPoint` in pixels, the
    /// distortion `coefficients` in `model`'s order (missing ones are zero).
    public init(model: LensDistortionModel, focalLength: SIMD2<Double>, principalPoint: SIMD2<Double>, coefficients: [Double]) {
        self.model = model
        self.focalLength = focalLength
        self.principalPoint = principalPoint
        var padded = coefficients + [Double](repeating: 0, count: max(0, 8 - coefficients.count))
        padded = Array(padded.prefix(8))
        k = padded
        limit = LensModel.monotonicLimit(model: model, k: padded)
    }

    /// The pixel where `ray` lands, or `nil` when it lies outside the lens's valid field.
    @inline(__always)
    public func project(_ ray: SIMD3<Double>) -> SIMD2<Double>? {
        let distorted: SIMD2<Double>
        switch model {
        case .opencvFisheye:
            let r = (ray.x * ray.x + ray.y * ray.y).squareRoot()
            let theta = atan2(r, ray.z)
            guard theta < limit else { return nil }
            if r < 1e-12 { return principalPoint }
            let t2 = theta * theta
            let thetaD = theta * (1 + t2 * (k[0] + t2 * (k[1] + t2 * (k[2] + t2 * k[3]))))
            distorted = SIMD2(ray.x, ray.y) * (thetaD / r)
        case .opencvStandard:
            guard ray.z > 1e-9 else { return nil }
            let a = ray.x / ray.z, b = ray.y / ray.z
            let r2 = a * a + b * b
            guard r2 < limit * limit else { return nil }
            let radial = (1 + r2 * (k[0] + r2 * (k[1] + r2 * k[4]))) / (1 + r2 * (k[5] + r2 * (k[6] + r2 * k[7])))
            let p1 = k[2], p2 = k[3]
            distorted = SIMD2(
                a * radial + 2 * p1 * a * b + p2 * (r2 + 2 * a * a),
                b * radial + p1 * (r2 + 2 * b * b) + 2 * p2 * a * b)
        }
        return distorted * focalLength + principalPoint
    }

    /// The ray (z = 1 for the standard model, unit length for fisheye) that lands on `pixel`, found
    /// by Newton (fisheye) or fixed-point (standard) iteration; `nil` outside the valid field.
    public func unproject(_ pixel: SIMD2<Double>) -> SIMD3<Double>? {
        let d = (pixel - principalPoint) / focalLength
        switch model {
        case .opencvFisheye:
            let thetaD = (d * d).sum().squareRoot()
            if thetaD < 1e-12 { return SIMD3(0, 0, 1) }
            var theta = thetaD
            for _ in 0..<20 {
                let t2 = theta * theta
                let f = theta * (1 + t2 * (k[0] + t2 * (k[1] + t2 * (k[2] + t2 * k[3])))) - thetaD
                let df = 1 + t2 * (3 * k[0] + t2 * (5 * k[1] + t2 * (7 * k[2] + t2 * 9 * k[3])))
                guard df > 1e-9 else { return nil }
                theta -= f / df
            }
            guard theta >= 0, theta < limit else { return nil }
            let direction = d / thetaD
            return SIMD3(direction.x * sin(theta), direction.y * sin(theta), cos(theta))
        case .opencvStandard:
            var point = d
            for _ in 0..<30 {
                let r2 = (point * point).sum()
                let radial = (1 + r2 * (k[0] + r2 * (k[1] + r2 * k[4]))) / (1 + r2 * (k[5] + r2 * (k[6] + r2 * k[7])))
                let p1 = k[2], p2 = k[3]
                let delta = SIMD2(
                    2 * p1 * point.x * point.y + p2 * (r2 + 2 * point.x * point.x),
                    p1 * (r2 + 2 * point.y * point.y) + 2 * p2 * point.x * point.y)
                guard radial.isFinite, abs(radial) > 1e-9 else { return nil }
                point = (d - delta) / radial
            }
            guard (point * point).sum() < limit * limit else { return nil }
            return SIMD3(point.x, point.y, 1)
        }
    }

    /// Where the distortion stops growing (searched numerically, capped at 3 rad or radius 4).
    private static func monotonicLimit(model: LensDistortionModel, k: [Double]) -> Double {
        let cap = model == .opencvFisheye ? 3.0 : 4.0
        let steps = 600
        var previous = 0.0
        for step in 1...steps {
            let x = cap * Double(step) / Double(steps)
            let value: Double
            switch model {
            case .opencvFisheye:
                let t2 = x * x
                value = x * (1 + t2 * (k[0] + t2 * (k[1] + t2 * (k[2] + t2 * k[3]))))
            case .opencvStandard:
                let r2 = x * x
                value = x * (1 + r2 * (k[0] + r2 * (k[1] + r2 * k[4]))) / (1 + r2 * (k[5] + r2 * (k[6] + r2 * k[7])))
            }
            if !(value > previous) { return cap * Double(step - 1) / Double(steps) }
            previous = value
        }
        return cap
    }
}
