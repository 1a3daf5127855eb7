/// What a device is (glasses, earbuds, watch, ...), by the vendor's raw values; it selects the
/// plugin's device class and so the device's capability protocols.
public enum DeviceProduct: Int, Sendable, Codable, CaseIterable, LenientIntEnum {
    /// Raw value -1: not reported yet, or a raw value this SDK does not define.
    case unknown = -1
    // docs: the vendor's product kinds; glasses, earbuds and watch have SMP classes of their own
    case watch = 0
    case ring = 1
    /// AI glasses.
    case glasses = 2
    case chargingCase = 3
    case earbuds = 4
    case speaker = 5

    /// ``unknown``, what ``LenientIntEnum/init(lenientRawValue:)`` gives for a raw value this SDK does not define.
    public static var unknownCase: DeviceProduct { .unknown }
}
