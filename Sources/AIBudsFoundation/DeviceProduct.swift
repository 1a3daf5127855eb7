/// The kind of product a device is.
public enum DeviceProduct: Int, Sendable, Codable, CaseIterable, LenientIntEnum {
    /// Not known.
    case unknown = -1
    /// A watch.
    case watch = 0
    /// A ring.
    case ring = 1
    /// AI glasses.
    case glasses = 2
    /// A charging case.
    case chargingCase = 3
    /// Earbuds.
    case earbuds = 4
    /// A speaker.
    case speaker = 5

    /// ``unknown``.
    public static var unknownCase: DeviceProduct { .unknown }
}
