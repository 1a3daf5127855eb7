import AIBudsDBus
import AIBudsFoundation

/// BlueZ's names and the mapping of its D-Bus errors to the SDK's codes, in one place.
public enum BlueZ {
    /// Zephyr's SMP GATT service (`mcumgr` over Bluetooth LE).
    public static let smpServiceUUID = "8d53dc1d-1db7-4cd3-868b-8a527460aa84"
    /// The SMP characteristic: requests by write without response, responses by notification.
    public static let smpCharacteristicUUID = "da2e7828-fbce-4e01-ae9e-261174997c48"
    /// The bus name BlueZ's daemon owns.
    static let service = "org.bluez"
    /// ATT's header in a write or notification (opcode and handle): the value gets MTU - 3 bytes.
    static let attHeader = 3

    /// The SDK error for a BlueZ or D-Bus error reply, with `what` (the step) in the message.
    ///
    /// - No bus or no BlueZ on it (`ServiceUnknown`, `NoServer`, `FileNotFound`): the radio is
    ///   unsupported here (1003).
    /// - `NotReady` (adapter off): powered off (1001).
    /// - `AccessDenied`, `NotAuthorized`, `NotPermitted` (polkit or the `bluetooth` group):
    ///   unauthorized (1002).
    /// - `UnknownObject`, `DoesNotExist`: the device is not known (2001).
    /// - `NoReply`, `Timeout`, `ConnectionAttemptFailed`: timeout (2006).
    /// - `AuthenticationFailed`/`AuthenticationRejected` (pairing refused or failed; remove the
    ///   stale bond with `bluetoothctl remove` and pair again), `AlreadyExists` outside pairing,
    ///   `ConnectionAttemptFailed` aside: not connected (2002); `AuthenticationTimeout`: timeout
    ///   (2006); `AuthenticationCanceled`: canceled (7005).
    /// - `Disconnected`, `NotConnected`, `Failed`, `InProgress`: not connected (2002).
    public static func sdkError(_ error: DBusError, _ what: String) -> AIBudsError {
        let message = "\(what): \(error.message.isEmpty ? error.name : "\(error.message) (\(error.name))")"
        let short = error.name.split(separator: ".").last.map(String.init) ?? error.name
        let code: SdkErrorCode
        switch short {
        case "ServiceUnknown", "NoServer", "FileNotFound", "NameHasNoOwner", "NotSupported":
            code = .scanningFailedDueToBluetoothUnsupported
        case "NotReady":
            code = .scanningFailedDueToBluetoothPoweredOff
        case "AccessDenied", "NotAuthorized", "NotPermitted", "AuthFailed":
            code = .scanningFailedDueToBluetoothUnauthorized
        case "UnknownObject", "DoesNotExist", "UnknownMethod", "UnknownInterface":
            code = .peripheralUnavailable
        case "NoReply", "Timeout", "TimedOut", "ConnectionAttemptFailed":
            code = .bleCommandExecFailedDueToTimeout
        case "AuthenticationTimeout":
            code = .bleCommandExecFailedDueToTimeout
        case "AuthenticationCanceled":
            code = .operationCanceled
        case "AuthenticationFailed", "AuthenticationRejected", "AlreadyExists":
            code = .peripheralNotConnected
        case "InvalidValueLength", "InvalidOffset":
            code = .blePacketWriteError
        default:
            code = .peripheralNotConnected
        }
        return AIBudsError(code, message, underlying: error)
    }

    /// The object path BlueZ gives a device's address under an adapter (`…/dev_AA_BB_CC_DD_EE_FF`).
    public static func devicePath(adapter: String, address: String) -> String {
        adapter + "/dev_" + address.uppercased().replacingOccurrences(of: ":", with: "_")
    }
}

/// When the BLE plugin pairs (bonds) with a device before it uses the SMP characteristic.
public enum BlueZPairing: Sendable {
    /// When the device is not paired and its SMP characteristic needs it: flags `encrypt-*`,
    /// `secure-*` or `encrypt-authenticated-*`, or BlueZ answers an access with "Not paired".
    case whenRequired
    /// Before the first use of a device that is not paired, whatever its characteristic says.
    case always
    /// Never: a device that needs a bond fails to connect (pair it with `bluetoothctl` first).
    case never
}

extension AIBudsError {
    /// Whether this error says a BlueZ service is absent (no bus, no daemon), which a scan treats
    /// as "no BLE here" rather than a failure.
    var isBlueZAbsent: Bool { code == .scanningFailedDueToBluetoothUnsupported }
}
