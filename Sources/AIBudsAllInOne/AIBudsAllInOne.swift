import AIBuds
import AIBudsImport
import AIBudsBlueZ
import AIBudsSMP
// The SMP glasses' and earbuds' AI audio path (`DeviceAIAudioAPI`): linked with this module, so
// `device as? DeviceAIAudioAPI` finds it in every app that uses the default plugins.
import AIBudsSMPAudio
import AIBudsStabilization

/// One call that initializes the SDK with its default plugins (and links the SMP devices' AI audio
/// path, module AIBudsSMPAudio).
public enum AIBudsAllInOne {
    /// The default link plugins: SMP over UDP (``/AIBudsSMP/SMPConnectSDK``) and SMP over Bluetooth LE through
    /// BlueZ on the system bus, or `DBUS_SYSTEM_BUS_ADDRESS` (``/AIBudsBlueZ/BlueZConnectSDK``).
    public static func defaultPlugins() -> [any BleConnectSDK] {
        [SMPConnectSDK(), BlueZConnectSDK()]
    }

    /// The default video stabilization plugin: gyro EIS with the AIBuds glasses' lens profile.
    public static func defaultVideoStabilizationPlugin() -> any VideoStabilizationPlugin {
        GyroStabilizationPlugin()
    }

    /// Initializes `AIBudsSDK` with the default plugins and, unless the app registered one already,
    /// the default video stabilization plugin (replace it with
    /// `AIBudsSDK.setVideoStabilizationPlugin(_:)`, or switch stabilization off with
    /// `AIBudsSDK.isVideoStabilizationDisabled`); `false` (with the reason logged) when the SDK is
    /// already initialized.
    @discardableResult
    public static func initialize(configuration: SDKConfiguration? = nil, delegate: (any SDKDelegate)? = nil) -> Bool {
        let initialized = AIBudsSDK.initialize(defaultPlugins(), configuration: configuration, delegate: delegate)
        if initialized && VideoStabilizationRegistry.shared.plugin == nil {
            AIBudsSDK.setVideoStabilizationPlugin(defaultVideoStabilizationPlugin())
        }
        return initialized
    }
}
