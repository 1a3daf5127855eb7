@testable import AIBudsStabilization
import AIBudsSyntheticVideo
import AIBudsTestKit
import Foundation
import Testing

/// The reference VQF filter (PyPI `vqf`) in the repository's `.venv-vqf/`, made by `scripts/vqf-venv.sh`.
enum VQFReference {
    /// The repository root (this file is `Tests/AIBudsStabilizationTests/<name>.swift`).
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    /// The venv's Python.
    static let python = repository.appendingPathComponent(".venv-vqf/bin/python")
    /// Whether the venv is there (scripts/install-deps.sh creates it).
    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: python.path) }

    /// The script: reads `t,gx,gy,gz,ax,ay,az` rows (rad/s, m/s²), runs offline VQF (6D), and prints
    /// the sensor-frame up direction (earth z) of every sample as `x,y,z` rows.
    static let script = """
        import sys, numpy as np
        from vqf import offlineVQF
        data = np.loadtxt(sys.argv[1], delimiter=",")
        Ts = float(np.mean(np.diff(data[:, 0])))
        out = offlineVQF(np.ascontiguousarray(data[:, 1:4]), np.ascontiguousarray(data[:, 4:7]), None, Ts)
        for w, x, y, z in out["quat6D"]:
            # R(q)^T (0, 0, 1): the earth's z axis seen in the sensor frame.
            print(f"{2*(x*z - w*y)},{2*(y*z + w*x)},{1 - 2*(x*x + y*y)}")
        """
}

@Suite("Orientation filter against the reference VQF", .enabled(if: VQFReference.isAvailable, "scripts/vqf-venv.sh has not made .venv-vqf/"))
struct OrientationFilterReferenceTests {
    static func angle(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
        let cosine = (a * b).sum() / ((a * a).sum().squareRoot() * (b * b).sum().squareRoot())
        return acos(min(1, max(-1, cosine))) * 180 / .pi
    }

    @Test("the Mahony filter's tilt follows VQF's and the truth on a shaky, biased head-worn path")
    func tiltAgrees() async throws {
        let motion = SyntheticMotion(panRate: 0.3, shake: 3)
        let rate = 200.0, seconds = 20.0
        let bias = SIMD3<Double>(0.01, -0.005, 0.004)
        var samples: [ImuSample] = []
        var truth: [SIMD3<Double>] = []
        var csv = ""
        for index in 0..<Int(rate * seconds) {
            let time = Double(index) / rate
            let up = motion.orientation(at: time).conjugate.rotate(SIMD3(0, -1, 0))
            let gyro = motion.bodyRate(at: time) + bias
            samples.append(ImuSample(time: time, gyro: gyro, accel: up))
            truth.append(up)
            let a = up * 9.81
            csv += "\(time),\(gyro.x),\(gyro.y),\(gyro.z),\(a.x),\(a.y),\(a.z)\n"
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("aibuds-vqf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("imu.csv"), script = folder.appendingPathComponent("vqf_up.py")
        try writeTestFile(Array(csv.utf8), to: data)
        try writeTestFile(Array(VQFReference.script.utf8), to: script)
        let result = try await runProgram(VQFReference.python, [script.path, data.path])
        try #require(result.status == 0, "\(result.err)")
        // VQF's earth z points up; up in the camera frame is what both should estimate.
        let reference = result.out.split(separator: "\n").map { line -> SIMD3<Double> in
            let v = line.split(separator: ",").compactMap { Double($0) }
            return SIMD3(v[0], v[1], v[2])
        }
        try #require(reference.count == samples.count)
        let track = MahonyOrientationFilter().track(samples)
        var ours = 0.0, vqf = 0.0, between = 0.0, worst = 0.0
        let start = Int(rate * 5)  // after both have converged on the bias
        for index in start..<samples.count {
            let up = track.orientations[index].conjugate.rotate(MahonyOrientationFilter.worldUp)
            let e1 = Self.angle(up, truth[index]), e2 = Self.angle(reference[index], truth[index]), e3 = Self.angle(up, reference[index])
            ours += e1 * e1
            vqf += e2 * e2
            between += e3 * e3
            worst = max(worst, e3)
        }
        let count = Double(samples.count - start)
        let (rmsOurs, rmsVQF, rmsBetween) = ((ours / count).squareRoot(), (vqf / count).squareRoot(), (between / count).squareRoot())
        print("orientation vs VQF: tilt RMS error ours \(rmsOurs)°, VQF \(rmsVQF)°, between \(rmsBetween)° (max \(worst)°)")
        #expect(rmsBetween < 1.5 && worst < 4)
        #expect(rmsOurs < 1.5)
    }
}
