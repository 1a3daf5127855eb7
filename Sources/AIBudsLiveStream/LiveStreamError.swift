/// A failure of a live stream client: the stream cannot be opened or read, its codec does not
/// suit the output, or an output (RTMP server, file) fails.
public struct LiveStreamError: Error, Sendable, CustomStringConvertible {
    /// The kinds of failure.
    public enum Kind: String, Sendable {
        /// The URL is not one this client reads or writes (`rtsp://`, `http://…` JPEG, `rtmp://`).
        case invalidURL
        /// The stream could not be opened or read, and reconnecting did not help within the window.
        case unreachable
        /// The stream carries a codec the output cannot take without re-encoding.
        case unsupportedCodec
        /// The stream's data does not decode.
        case invalidData
        /// An output (RTMP endpoint, file) failed.
        case output
    }

    /// What failed.
    public var kind: Kind
    /// A human-readable explanation.
    public var message: String
    /// FFmpeg's error code, when FFmpeg reported it (0 otherwise).
    public var code: Int32

    /// Creates a failure of `kind`.
    public init(_ kind: Kind, _ message: String, code: Int32 = 0) {
        self.kind = kind
        self.message = message
        self.code = code
    }

    /// `kind: message`.
    public var description: String { "\(kind.rawValue): \(message)" }
}
