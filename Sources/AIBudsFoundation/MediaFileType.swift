/// The kind of a media file on the device.
public enum MediaFileType: Int, Sendable, Codable, CaseIterable, LenientIntEnum {
    /// Raw value -1: not reported yet, or a raw value this SDK does not define.
    case unknown = -1
    /// A photo.
    case image = 1
    /// An audio recording.
    case audio = 2
    /// Raw value 3: a video clip; glasses may record six-axis data alongside it.
    case video = 3

    /// ``unknown``, what ``LenientIntEnum/init(lenientRawValue:)`` gives for a raw value this SDK does not define.
    public static var unknownCase: MediaFileType { .unknown }
}
