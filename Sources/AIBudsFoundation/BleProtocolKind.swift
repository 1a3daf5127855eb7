/// The link protocol a device speaks, which selects the plugin that handles it.
public enum BleProtocolKind: Int, Sendable, Codable, CaseIterable, LenientIntEnum {
    /// No protocol.
    case none = -1
    /// The ABMate BLE protocol.
    case abmate = 0
    /// The FitCloudPro protocol.
    case fitcloudPro = 1
    /// The W30 protocol.
    case w30 = 2
    /// This project's protocol: SMP (Zephyr MCUmgr) with the project's user groups (docs/protocol.md).
    case smp = 100

    /// ``none``.
    public static var unknownCase: BleProtocolKind { .none }
}
