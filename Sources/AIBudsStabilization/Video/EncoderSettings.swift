/// How the stabilized video is encoded.
public struct EncoderSettings: Sendable, Equatable {
    /// The x264/x265 preset (`ultrafast` … `veryslow`).
    public var preset: String
    /// The constant rate factor (0–51; lower is better quality, larger files).
    public var crf: Int
    /// Whether an HEVC source is encoded as HEVC (libx265) when that encoder exists; H.264 otherwise.
    public var keepsHEVC: Bool

    /// Creates settings; the defaults are `veryfast`, CRF 20, HEVC kept.
    public init(preset: String = "veryfast", crf: Int = 20, keepsHEVC: Bool = true) {
        self.preset = preset
        self.crf = crf
        self.keepsHEVC = keepsHEVC
    }

    /// The presets x264 and x265 both know.
    public static let presets = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow"]
}
