/// One six-axis reading of the camera's IMU as the live stream carries it (docs/protocol.md, Live
/// group, "Motion"): its time relative to the capture time of the frame it travels with, and the
/// readings in the six-axis log's frame of reference (x up in the image, y to the image's left, z
/// backward out of the lens; `orientation` `XYZ`).
public struct LiveMotionSample: Sendable, Equatable {
    /// Microseconds from the frame's capture time (its stamp) to this reading; negative: before.
    public var offsetMicroseconds: Int32
    /// Angular rate in rad/s about x, y and z (right-hand rule).
    public var gyro: SIMD3<Float>
    /// Specific force in g (at rest +1 g along the axis pointing up), when the device sends it.
    public var accel: SIMD3<Float>?

    /// A reading `offsetMicroseconds` from its frame's capture time.
    public init(offsetMicroseconds: Int32, gyro: SIMD3<Float>, accel: SIMD3<Float>?) {
        self.offsetMicroseconds = offsetMicroseconds
        self.gyro = gyro
        self.accel = accel
    }
}

/// The motion SEI message: the IMU readings taken since the previous frame, carried in the
/// frame's own H.264 access unit as SEI user data unregistered under ``uuid``, beside the frame's
/// ``LiveFrameStamp``. Layout: the UUID (16 bytes), a flags byte (bit 0: accelerometer present),
/// the count (1 byte, at most ``maximumSamples``), then per reading the offset (int32) and the
/// gyro's x, y, z (IEEE 754 binary32), followed by the accelerometer's x, y, z when flagged; all
/// big-endian.
public enum LiveMotionSEI {
    /// ASCII `AIBudsLiveMotion`: marks this project's motion among SEI user data.
    public static let uuid: [UInt8] = Array("AIBudsLiveMotion".utf8)
    /// The most readings one frame carries (a 255-sample count: 1 kHz at 4 fps).
    public static let maximumSamples = 255

    /// The payload for `samples` (at most ``maximumSamples``; more are cut); the accelerometer is
    /// flagged present only when every reading has one.
    public static func payload(_ samples: [LiveMotionSample]) -> [UInt8] {
        let samples = samples.prefix(maximumSamples)
        let hasAccel = !samples.isEmpty && samples.allSatisfy { $0.accel != nil }
        var bytes = uuid + [hasAccel ? 1 : 0, UInt8(samples.count)]
        bytes.reserveCapacity(bytes.count + samples.count * (hasAccel ? 28 : 16))
        func append(_ value: UInt32) {
            bytes += [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
        }
        for sample in samples {
            append(UInt32(bitPattern: sample.offsetMicroseconds))
            for axis in 0..<3 { append(sample.gyro[axis].bitPattern) }
            if hasAccel, let accel = sample.accel { for axis in 0..<3 { append(accel[axis].bitPattern) } }
        }
        return bytes
    }

    /// The readings in a payload; nil when it is not this project's motion (another UUID), when
    /// its length does not match its count, or when a reading is not finite.
    public static func samples(fromPayload payload: some Collection<UInt8>) -> [LiveMotionSample]? {
        let bytes = Array(payload)
        guard bytes.count >= 18, Array(bytes[0..<16]) == uuid, bytes[16] & ~1 == 0 else { return nil }
        let hasAccel = bytes[16] & 1 == 1
        let count = Int(bytes[17])
        let size = hasAccel ? 28 : 16
        guard bytes.count == 18 + count * size else { return nil }
        func word(_ at: Int) -> UInt32 {
            UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
        }
        func vector(_ at: Int) -> SIMD3<Float>? {
            let value = SIMD3(Float(bitPattern: word(at)), Float(bitPattern: word(at + 4)), Float(bitPattern: word(at + 8)))
            return value.x.isFinite && value.y.isFinite && value.z.isFinite ? value : nil
        }
        var samples = [LiveMotionSample]()
        samples.reserveCapacity(count)
        for index in 0..<count {
            let at = 18 + index * size
            guard let gyro = vector(at + 4) else { return nil }
            var accel: SIMD3<Float>?
            if hasAccel {
                guard let value = vector(at + 16) else { return nil }
                accel = value
            }
            samples.append(LiveMotionSample(offsetMicroseconds: Int32(bitPattern: word(at)), gyro: gyro, accel: accel))
        }
        return samples
    }
}
