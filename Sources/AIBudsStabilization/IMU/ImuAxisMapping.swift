import Foundation

/// Gyroflow's `orientation` letters: output axis `i` is the sensor axis named by letter `i`
/// (`X`, `Y`, `Z`), negated when the letter is lowercase. `XYZ` is the identity.
public struct ImuAxisMapping: Sendable, Equatable {
    /// For each output axis, the sensor axis it reads (0–2).
    public let sources: SIMD3<Int>
    /// For each output axis, +1 or -1.
    public let signs: SIMD3<Double>

    /// Parses three letters naming each of x, y and z once; `nil` for anything else.
    public init?(letters: String) {
        let characters = Array(letters.trimmingCharacters(in: .whitespaces))
        guard characters.count == 3 else { return nil }
        var sources = SIMD3<Int>(repeating: 0)
        var signs = SIMD3<Double>(repeating: 1)
        var seen = Set<Int>()
        for (index, character) in characters.enumerated() {
            guard let axis = ["x": 0, "y": 1, "z": 2][character.lowercased()], character.isASCII else { return nil }
            guard seen.insert(axis).inserted else { return nil }
            sources[index] = axis
            signs[index] = character.isUppercase ? 1 : -1
        }
        self.sources = sources
        self.signs = signs
    }

    /// The sensor vector expressed in the log's reference frame (x up in the image, y to the
    /// image's left, z backward out of the lens toward the viewer).
    public func apply(_ raw: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(raw[sources.x] * signs.x, raw[sources.y] * signs.y, raw[sources.z] * signs.z)
    }

    /// A vector of the log's reference frame in the camera frame of ``ImuSample`` (x right, y down,
    /// z forward): right = -left, down = -up, forward = -backward. A proper rotation (determinant +1).
    public static func cameraFrame(fromLogFrame log: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(-log.y, -log.x, -log.z)
    }

    /// The inverse of ``cameraFrame(fromLogFrame:)``.
    public static func logFrame(fromCameraFrame camera: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(-camera.y, -camera.x, -camera.z)
    }
}
