/// Progress of a long deletion the device reports.
public enum FileDeletingProgressEvent: Int, Sendable, Codable, CaseIterable, LenientIntEnum {
    /// Raw value -1: not reported yet, or a raw value this SDK does not define.
    case unknown = -1
    /// The deletion stopped before it finished.
    case unexpectedExit = 0
    /// The deletion finished.
    case completed = 1

    /// ``unknown``, what ``LenientIntEnum/init(lenientRawValue:)`` gives for a raw value this SDK does not define.
    public static var unknownCase: FileDeletingProgressEvent { .unknown }
}
