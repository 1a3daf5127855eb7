import AIBuds
import AIBudsFoundation

/// A link plugin that ships with the SDK and whose devices are the SMP device classes, whatever
/// the link (`SMPConnectSDK` over UDP, `BlueZConnectSDK` over Bluetooth LE): it reports the SDK's
/// version as its own and picks ``SMPDevice``'s class for each product, so each plugin writes only
/// its name, its protocol kind and how it finds devices.
public protocol SMPLinkPlugin: BleConnectSDK {}

extension SMPLinkPlugin {
    /// ``/AIBuds/AIBudsSDK/sdkVersion``: the plugin ships with the SDK.
    public var sdkVersion: String { AIBudsSDK.sdkVersion }
    /// ``/AIBuds/AIBudsSDK/sdkBuild``: the plugin ships with the SDK.
    public var sdkBuild: String { AIBudsSDK.sdkBuild }
    /// ``/AIBuds/AIBudsSDK/sdkReleaseDate``: the plugin ships with the SDK.
    public var sdkReleaseDate: String { AIBudsSDK.sdkReleaseDate }
    /// `AIBuds`, who provides the SDK.
    public var providerName: String { "AIBuds" }
    /// ``SMPDevice``, the base class of every device an SMP link plugin makes (stored devices of
    /// its protocol kind are restored as it); ``classForDeviceModel(product:)`` picks the subclass.
    public var classForDeviceModel: any DeviceConvertible.Type { SMPDevice.self }

    /// The product's class (``SMPDevice/deviceClass(for:)``): glasses, earbuds and watch have their
    /// own, declaring their capability protocols; other products get ``SMPDevice``.
    public func classForDeviceModel(product: DeviceProduct) -> any DeviceConvertible.Type {
        SMPDevice.deviceClass(for: product)
    }

    /// Ignores the delegate: the SDK itself reports every SDK-wide event (scan results, Bluetooth
    /// state); an SMP link plugin has none of its own to report.
    public func setSDKDelegate(_ delegate: (any SDKDelegate)?) {}
}
