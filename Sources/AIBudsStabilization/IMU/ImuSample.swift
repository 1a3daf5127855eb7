/// One six-axis reading in the camera frame this module computes in (x right in the image, y down,
/// z forward out of the lens, right-handed).
public struct ImuSample: Sendable, Equatable {
    /// Seconds from the presentation time of the video's first frame.
    public var time: Double
    /// Angular rate in rad/s about the camera axes (right-hand rule).
    public var gyro: SIMD3<Double>
    /// Specific force in g (at rest: +1 g along the direction pointing up), when logged.
    public var accel: SIMD3<Double>?

    /// One reading at `time` seconds from the first frame: rates in rad/s in the camera frame,
    /// and the accelerometer in g when the log has one.
    public init(time: Double, gyro: SIMD3<Double>, accel: SIMD3<Double>?) {
        self.time = time
        self.gyro = gyro
        self.accel = accel
    }
}
