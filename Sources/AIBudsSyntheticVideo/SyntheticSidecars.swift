import AIBudsStabilization
import Foundation

/// Writes the `.gcsv` and lens-profile JSON that match a synthetic clip, from the issue's
/// definitions directly (not through the parser's own mapping code).
public enum SyntheticSidecars {
    /// The `.gcsv` text for `motion` over `seconds` at `rate` Hz, with `orientation` letters.
    /// Log frame: x up in the image, y to the image's left, z backward; the camera frame has x
    /// right, y down, z forward, so up = -y, left = -x, backward = -z.
    public static func gcsv(
        _ motion: SyntheticMotion, seconds: Double, rate: Double = 500, orientation: String = "XYZ", readoutMs: Double? = nil
    ) -> String {
        let gscale = 0.0002, ascale = 1.0 / 4096, tscale = 0.0001
        var text = "GYROFLOW IMU LOG\nversion,1.3\nid,synthetic\norientation,\(orientation)\ntscale,\(tscale)\ngscale,\(gscale)\nascale,\(ascale)\n"
        if let readoutMs { text += "frame_readout_time,\(readoutMs)\nframe_readout_direction,TopToBottom\n" }
        text += "t,gx,gy,gz,ax,ay,az\n"
        let letters = Array(orientation)
        func toSensor(_ reference: SIMD3<Double>) -> SIMD3<Double> {
            // reference[i] = sign_i × sensor[axis_i]  ⇒  sensor[axis_i] = sign_i × reference[i].
            var sensor = SIMD3<Double>.zero
            for (index, letter) in letters.enumerated() {
                let axis = ["x": 0, "y": 1, "z": 2][letter.lowercased()]!
                sensor[axis] = (letter.isUppercase ? 1 : -1) * reference[index]
            }
            return sensor
        }
        let count = Int(seconds * rate) + 1
        for index in 0..<count {
            let time = Double(index) / rate - 0.05
            let w = motion.bodyRate(at: time)
            let upInCamera = motion.orientation(at: time).conjugate.rotate(SIMD3(0, -1, 0))
            let gyro = toSensor(SIMD3(-w.y, -w.x, -w.z))
            let accel = toSensor(SIMD3(-upInCamera.y, -upInCamera.x, -upInCamera.z))
            let g = (gyro / gscale).rounded(.toNearestOrEven), a = (accel / ascale).rounded(.toNearestOrEven)
            text += "\(Int((time / tscale).rounded())),\(Int(g.x)),\(Int(g.y)),\(Int(g.z)),\(Int(a.x)),\(Int(a.y)),\(Int(a.z))\n"
        }
        return text
    }

    /// A Gyroflow lens profile for `lens` calibrated at `width` × `height`.
    public static func lensProfileJSON(_ profile: LensProfile) -> String {
        let k = profile.coefficients.map { "\($0)" }.joined(separator: ", ")
        let readout = profile.frameReadoutTime.map { "\($0 * 1000)" } ?? "null"
        return """
            {"calibrated_by": "tests", "camera_brand": "Synthetic", "camera_model": "Clip",
             "calib_dimension": {"w": \(profile.calibrationWidth), "h": \(profile.calibrationHeight)},
             "frame_readout_time": \(readout), "frame_readout_direction": "TopToBottom",
             "use_opencv_fisheye": \(profile.model == .opencvFisheye), "use_opencv_standard": \(profile.model == .opencvStandard),
             "fisheye_params": {"RMS_error": 0.1,
               "camera_matrix": [[\(profile.focalLength.x), 0, \(profile.principalPoint.x)], [0, \(profile.focalLength.y), \(profile.principalPoint.y)], [0, 0, 1]],
               "distortion_coeffs": [\(k)]}}
            """
    }
}
