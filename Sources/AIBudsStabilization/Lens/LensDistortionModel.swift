/// The lens distortion models this module can undo, named as Gyroflow's `distortion_model`.
public enum LensDistortionModel: String, Sendable, Equatable, CaseIterable {
    /// OpenCV's fisheye (Kannala–Brandt) model: θd = θ(1 + k1θ² + k2θ⁴ + k3θ⁶ + k4θ⁸), four coefficients.
    case opencvFisheye = "opencv_fisheye"
    /// OpenCV's standard (Brown–Conrady) model: radial k1, k2, k3 (and rational k4–k6) with
    /// tangential p1, p2, coefficients in OpenCV's order k1, k2, p1, p2[, k3[, k4, k5, k6]].
    case opencvStandard = "opencv_standard"

    /// How many coefficients the model takes.
    var acceptedCoefficientCounts: Set<Int> {
        switch self {
        case .opencvFisheye: [4]
        case .opencvStandard: [4, 5, 8]
        }
    }
}
