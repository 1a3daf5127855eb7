import AIBuds
import AIBudsBlueZ
import AIBudsSMP

/// One call that initializes the SDK with its default plugins.
public enum AIBudsAllInOne {
    /// The default link plugins: SMP over UDP (``SMPConnectSDK``) and SMP over Bluetooth LE through
    /// BlueZ on the system bus, or `DBUS_SYSTEM_BUS_ADDRESS` (``BlueZConnectSDK``).
    public static func defaultPlugins() -> [any BleConnectSDK] {
        [SMPConnectSDK(), BlueZConnectSDK()]
    }

    /// Initializes `AIBudsSDK` with the default plugins; `false` (with the reason logged) when the SDK
    /// is already initialized.
    @discardableResult
    public static func initialize(configuration: SDKConfiguration? = nil, delegate: (any SDKDelegate)? = nil) -> Bool {
        AIBudsSDK.initialize(defaultPlugins(), configuration: configuration, delegate: delegate)
    }
}
