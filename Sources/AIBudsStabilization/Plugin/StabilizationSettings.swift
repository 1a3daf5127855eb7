/// Everything a stabilization run can be told.
public struct StabilizationSettings: Sendable, Equatable {
    /// How the virtual camera follows the real one.
    public var smoothing: SmoothingMode
    /// Whether the horizon is kept level (needs accelerometer data for the absolute tilt).
    public var horizonLock: Bool
    /// The largest zoom the adaptive zoom may use.
    public var maximumZoom: Double
    /// The rolling-shutter readout time in seconds, overriding the log's and the lens profile's;
    /// 0 treats the sensor as a global shutter.
    public var readoutTime: Double?
    /// How the stabilized video is encoded: x264/x265 preset, CRF, and whether HEVC stays HEVC.
    public var encoder: EncoderSettings
    /// Whether the log's time offset to the video is checked against the image motion of the first
    /// two seconds and corrected when it is off (``GyroTimeOffset``); false trusts the log's `t = 0`.
    public var searchesTimeOffset: Bool

    /// Creates settings; the defaults are the adaptive smoother at smoothness 0.5, no horizon lock,
    /// zoom up to 2.5×, the readout time from the log or lens, `veryfast` CRF 20, the time offset
    /// checked.
    public init(
        smoothing: SmoothingMode = .adaptive(smoothness: 0.5), horizonLock: Bool = false, maximumZoom: Double = 2.5,
        readoutTime: Double? = nil, encoder: EncoderSettings = EncoderSettings(), searchesTimeOffset: Bool = true
    ) {
        self.searchesTimeOffset = searchesTimeOffset
        self.smoothing = smoothing
        self.horizonLock = horizonLock
        self.maximumZoom = maximumZoom
        self.readoutTime = readoutTime
        self.encoder = encoder
    }
}
