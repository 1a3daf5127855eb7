/// The link protocol a device speaks, which selects the plugin that handles it.
public enum BleProtocolKind: Int, Sendable, Codable, CaseIterable, LenientIntEnum {
    /// Raw value -1: no protocol is known for the device, or a stored record names a raw value this
    /// SDK does not define.
    case none = -1
    /// The ABMate BLE protocol.
    case abmate = 0
    /// The FitCloudPro protocol.
    case fitcloudPro = 1
    /// The vendor's W30 link protocol, raw value 2 in stored device records.
    case w30 = 2
    /// This project's protocol: SMP (Zephyr MCUmgr) with the project's user groups (docs/protocol.md).
    case smp = 100

    /// ``none``, what ``LenientIntEnum/init(lenientRawValue:)`` gives for a raw value this SDK does not define.
    public static var unknownCase: BleProtocolKind { .none }
}
