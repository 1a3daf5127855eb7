/// What the stabilizer needs to know about a video before decoding it.
public struct VideoStreamInfo: Sendable {
    /// Coded width in pixels.
    public var width: Int
    /// Coded height in pixels.
    public var height: Int
    /// Presentation times of every frame in seconds from the first one, in display order.
    public var frameTimes: [Double]
    /// The average frame rate (frames per second), from the stream or the frame times.
    public var frameRate: Double
    /// Whether the video is HEVC (else H.264 or another codec that is re-encoded as H.264).
    public var isHEVC: Bool
    /// How many audio streams the file has.
    public var audioStreamCount: Int
}
