/// The kind of a media file on the device.
public enum MediaFileType: Int, Sendable, Codable, CaseIterable, LenientIntEnum {
    /// Not known.
    case unknown = -1
    /// A photo.
    case image = 1
    /// An audio recording.
    case audio = 2
    /// A video.
    case video = 3

    /// ``unknown``.
    public static var unknownCase: MediaFileType { .unknown }
}
