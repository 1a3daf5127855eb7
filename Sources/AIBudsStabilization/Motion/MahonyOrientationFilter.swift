/// Integrates gyroscope samples into camera orientations, pulling the tilt toward the
/// accelerometer's "up" with a Mahony complementary filter (proportional and integral feedback).
///
/// Why Mahony and not VQF: stabilization needs the relative rotation between nearby frames
/// exactly (from the gyro alone) and the absolute tilt only slowly (for horizon lock), which a
/// low-gain complementary filter gives with two parameters and no heading reference; the gyro bias
/// is estimated by the integral term. The world frame has y pointing down (gravity), like the
/// camera frame of a level camera; its heading is the camera's heading at the first sample.
public struct MahonyOrientationFilter: Sendable {
    /// Proportional gain (rad/s per unit of tilt error): how fast the tilt follows the accelerometer.
    public var proportionalGain: Double
    /// Integral gain: how fast the gyro bias estimate adapts.
    public var integralGain: Double
    /// Accelerometer readings further than this from 1 g (in g) are ignored as motion, not gravity.
    public var accelerationGate: Double

    /// Creates a filter; the defaults suit a head-worn camera (slow tilt correction, ±0.25 g gate).
    public init(proportionalGain: Double = 0.5, integralGain: Double = 0.01, accelerationGate: Double = 0.25) {
        self.proportionalGain = proportionalGain
        self.integralGain = integralGain
        self.accelerationGate = accelerationGate
    }

    /// The world's up direction in world coordinates.
    public static let worldUp = SIMD3<Double>(0, -1, 0)

    /// The orientation at every sample of `samples` (at least one).
    public func track(_ samples: [ImuSample]) -> OrientationTrack {
        var q = initialOrientation(samples)
        var bias = SIMD3<Double>.zero
        var orientations = [Quaternion]()
        orientations.reserveCapacity(samples.count)
        orientations.append(q)
        for index in 1..<max(1, samples.count) {
            advance(&q, bias: &bias, from: samples[index - 1], to: samples[index])
            orientations.append(q)
        }
        return OrientationTrack(times: samples.map(\.time), orientations: orientations)
    }

    /// One step of the filter: `q` (and the gyro bias estimate) from `previous`'s time to
    /// `sample`'s. The one integration step of the file path (``track(_:)``) and the live one
    /// (``LiveStabilizationModel``).
    func advance(_ q: inout Quaternion, bias: inout SIMD3<Double>, from previous: ImuSample, to sample: ImuSample) {
        let dt = sample.time - previous.time
        var rate = (previous.gyro + sample.gyro) / 2
        if let accel = sample.accel {
            let norm = (accel * accel).sum().squareRoot()
            if norm > 0, abs(norm - 1) < accelerationGate {
                let measuredUp = accel / norm
                let expectedUp = q.conjugate.rotate(Self.worldUp)
                let error = Quaternion.cross(measuredUp, expectedUp)
                bias += error * (integralGain * dt)
                rate += error * proportionalGain + bias
            }
        }
        q = (q * Quaternion(rotationVector: rate * dt)).normalized
    }

    /// The tilt of the first 0.1 s of accelerometer readings (identity without an accelerometer).
    func initialOrientation(_ samples: [ImuSample]) -> Quaternion {
        guard let start = samples.first?.time else { return .identity }
        var sum = SIMD3<Double>.zero
        for sample in samples where sample.time - start <= 0.1 {
            if let accel = sample.accel { sum += accel }
        }
        let norm = (sum * sum).sum().squareRoot()
        guard norm > 0 else { return .identity }
        return Quaternion(from: sum / norm, to: Self.worldUp)
    }
}
