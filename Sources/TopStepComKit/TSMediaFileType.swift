/// The kinds of media file a TopStep device keeps; audio recordings are the one defined today.
public enum TSMediaFileType: Int, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    /// A type this SDK does not know.
    case unknown = 0
    /// An audio recording made on the device.
    case audioRecording = 1

    /// The wire's `MediaFileType` raw value for this type (audio 2), or nil for `unknown`.
    var wireType: Int? {
        switch self {
        case .unknown: nil
        case .audioRecording: 2
        }
    }

    /// The TopStep type of a wire `MediaFileType` raw value; `unknown` for images, videos and others.
    init(wireType: Int) {
        self = wireType == 2 ? .audioRecording : .unknown
    }

    /// A short name for logs and the command line: `unknown` or `audioRecording`.
    public var description: String {
        switch self {
        case .unknown: "unknown"
        case .audioRecording: "audioRecording"
        }
    }
}
