/// Progress of a long deletion the device reports.
public enum FileDeletingProgressEvent: Int, Sendable, Codable, CaseIterable, LenientIntEnum {
    /// Not known.
    case unknown = -1
    /// The deletion stopped before it finished.
    case unexpectedExit = 0
    /// The deletion finished.
    case completed = 1

    /// ``unknown``.
    public static var unknownCase: FileDeletingProgressEvent { .unknown }
}
