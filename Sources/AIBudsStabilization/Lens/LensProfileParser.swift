import AIBudsFiles
import Foundation

/// Reads Gyroflow's lens-profile JSON strictly: `calib_dimension` {w, h},
/// `fisheye_params.camera_matrix` (3×3) and `fisheye_params.distortion_coeffs`, the model from
/// `distortion_model` or else `use_opencv_standard` / `use_opencv_fisheye` (fisheye when neither),
/// `frame_readout_time` in ms and `frame_readout_direction`. Other fields are ignored.
public enum LensProfileParser {
    /// The largest profile accepted (4 MiB).
    public static let maximumBytes = 4 << 20

    /// Parses the file at `url`.
    public static func parse(contentsOf url: URL) throws -> LensProfile {
        let data: Data
        do { data = try InputFile.read(url, limit: maximumBytes) } catch {
            throw LensProfileError(field: "", "the profile \(error)")
        }
        return try parse(data)
    }

    /// Parses a profile held in memory.
    public static func parse(_ data: Data) throws(LensProfileError) -> LensProfile {
        guard data.count <= maximumBytes else { throw LensProfileError(field: "", "the profile is larger than \(maximumBytes) bytes") }
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: data) } catch {
            throw LensProfileError(field: "", "not valid JSON")
        }
        guard let root = object as? [String: Any] else { throw LensProfileError(field: "", "the document is not a JSON object") }

        guard let dimension = root["calib_dimension"] as? [String: Any] else {
            throw LensProfileError(field: "calib_dimension", "missing or not an object")
        }
        let width = try integer(dimension["w"], "calib_dimension.w")
        let height = try integer(dimension["h"], "calib_dimension.h")

        guard let fisheye = root["fisheye_params"] as? [String: Any] else {
            throw LensProfileError(field: "fisheye_params", "missing or not an object")
        }
        guard let matrix = fisheye["camera_matrix"] as? [Any], matrix.count == 3 else {
            throw LensProfileError(field: "fisheye_params.camera_matrix", "must be three rows of three numbers")
        }
        var rows: [[Double]] = []
        for (index, row) in matrix.enumerated() {
            guard let values = row as? [Any], values.count == 3 else {
                throw LensProfileError(field: "fisheye_params.camera_matrix", "row \(index) is not three numbers")
            }
            var numbers: [Double] = []
            for (column, value) in values.enumerated() { numbers.append(try number(value, "fisheye_params.camera_matrix[\(index)][\(column)]")) }
            rows.append(numbers)
        }
        let focal = SIMD2(rows[0][0], rows[1][1])
        let center = SIMD2(rows[0][2], rows[1][2])
        guard focal.x > 0, focal.y > 0, focal.x < 1e6, focal.y < 1e6 else {
            throw LensProfileError(field: "fisheye_params.camera_matrix", "focal lengths must be positive")
        }
        guard center.x > 0, center.x < Double(width), center.y > 0, center.y < Double(height) else {
            throw LensProfileError(field: "fisheye_params.camera_matrix", "the principal point lies outside the calibration frame")
        }

        let model = try distortionModel(root)
        guard let rawCoefficients = fisheye["distortion_coeffs"] as? [Any] else {
            throw LensProfileError(field: "fisheye_params.distortion_coeffs", "missing or not an array")
        }
        var coefficients: [Double] = []
        for (index, value) in rawCoefficients.enumerated() { coefficients.append(try number(value, "fisheye_params.distortion_coeffs[\(index)]")) }
        guard model.acceptedCoefficientCounts.contains(coefficients.count) else {
            throw LensProfileError(
                field: "fisheye_params.distortion_coeffs",
                "\(model.rawValue) takes \(model.acceptedCoefficientCounts.sorted().map(String.init).joined(separator: " or ")) coefficients, got \(coefficients.count)")
        }
        if let index = coefficients.firstIndex(where: { abs($0) >= 1e3 }) {
            throw LensProfileError(
                field: "fisheye_params.distortion_coeffs[\(index)]", "is \(coefficients[index]); a lens coefficient lies between -1000 and 1000")
        }

        var readout: Double?
        if let value = root["frame_readout_time"], !(value is NSNull) {
            let ms = try number(value, "frame_readout_time")
            guard ms >= 0, ms < 1000 else { throw LensProfileError(field: "frame_readout_time", "must be 0 to 1000 ms") }
            readout = ms / 1000
        }
        var direction: ReadoutDirection?
        if let value = root["frame_readout_direction"], !(value is NSNull) {
            let text = (value as? String) ?? (value as? NSNumber).map { "\($0.intValue)" } ?? ""
            guard let parsed = ReadoutDirection(gyroflowName: text) else {
                throw LensProfileError(field: "frame_readout_direction", "unknown direction")
            }
            direction = parsed
        }
        let name = [root["camera_brand"], root["camera_model"], root["lens_model"]].compactMap { $0 as? String }
            .filter { !$0.isEmpty }.joined(separator: " ")
        return LensProfile(
            calibrationWidth: width, calibrationHeight: height, focalLength: focal, principalPoint: center, model: model,
            coefficients: coefficients, frameReadoutTime: readout, readoutDirection: direction, name: name)
    }

    private static func distortionModel(_ root: [String: Any]) throws(LensProfileError) -> LensDistortionModel {
        if let name = root["distortion_model"], !(name is NSNull) {
            guard let text = name as? String, let model = LensDistortionModel(rawValue: text) else {
                throw LensProfileError(field: "distortion_model", "unsupported model (opencv_fisheye or opencv_standard)")
            }
            return model
        }
        if (root["use_opencv_standard"] as? Bool) == true { return .opencvStandard }
        return .opencvFisheye
    }

    private static func number(_ value: Any?, _ field: String) throws(LensProfileError) -> Double {
        guard let number = value as? NSNumber, number.doubleValue.isFinite else {
            throw LensProfileError(field: field, "must be a finite number")
        }
        return number.doubleValue
    }

    private static func integer(_ value: Any?, _ field: String) throws(LensProfileError) -> Int {
        let value = try number(value, field)
        guard value >= 16, value <= 65_536, value.rounded() == value else {
            throw LensProfileError(field: field, "must be a whole number of pixels from 16 to 65536")
        }
        return Int(value)
    }
}
