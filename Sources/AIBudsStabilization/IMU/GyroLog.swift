/// A parsed six-axis log: samples in the camera frame plus the header fields that matter for
/// stabilization.
public struct GyroLog: Sendable {
    /// Samples in increasing time, gyro in rad/s and accelerometer in g, in the camera frame.
    public var samples: [ImuSample]
    /// The header's `id`, if any.
    public var id: String?
    /// The header's `vendor`, if any.
    public var vendor: String?
    /// The header's `lensprofile` (a profile name or path), if any.
    public var lensProfileName: String?
    /// The header's rolling-shutter readout time in seconds (`frame_readout_time`, given in ms), if any.
    public var frameReadoutTime: Double?
    /// The header's `frame_readout_direction`, if any.
    public var readoutDirection: ReadoutDirection?

    /// Holds parsed samples (seconds from the first frame, rad/s, g) with the header fields a
    /// `.gcsv` gave; code that has its own IMU data builds one directly.
    public init(
        samples: [ImuSample], id: String? = nil, vendor: String? = nil, lensProfileName: String? = nil,
        frameReadoutTime: Double? = nil, readoutDirection: ReadoutDirection? = nil
    ) {
        self.samples = samples
        self.id = id
        self.vendor = vendor
        self.lensProfileName = lensProfileName
        self.frameReadoutTime = frameReadoutTime
        self.readoutDirection = readoutDirection
    }

    /// Whether the log has accelerometer readings.
    public var hasAccelerometer: Bool { samples.first?.accel != nil }
}
