import Foundation

/// Receives scanning status and the connection events of every device; every method has an empty
/// default.
///
/// Passed to `AIBudsSDK.initialize(_:configuration:delegate:)`; the SDK holds it weakly. Callbacks
/// arrive in order on the SDK's callback queue.
public protocol SDKDelegate: AnyObject, Sendable {
    /// Scanning started (`true`) or stopped (`false`).
    func onScanningStatusChanged(_ isScanning: Bool)
    /// A device started connecting.
    func didStartConnectingDevice(_ device: any DeviceConvertible)
    /// A device's link is up.
    func didConnectedToDevice(_ device: any DeviceConvertible)
    /// Connecting or initializing a device failed.
    func didFailToConnectDevice(_ device: any DeviceConvertible, error: NSError?)
    /// A device disconnected; `error` is `nil` when the app asked for it.
    func device(_ device: any DeviceConvertible, didDisconnectWithError error: NSError?)
    /// A device is ready for commands.
    func deviceDidReady(_ device: any DeviceConvertible)
}

extension SDKDelegate {
    /// Does nothing.
    public func onScanningStatusChanged(_ isScanning: Bool) {}
    /// Does nothing.
    public func didStartConnectingDevice(_ device: any DeviceConvertible) {}
    /// Does nothing.
    public func didConnectedToDevice(_ device: any DeviceConvertible) {}
    /// Does nothing.
    public func didFailToConnectDevice(_ device: any DeviceConvertible, error: NSError?) {}
    /// Does nothing.
    public func device(_ device: any DeviceConvertible, didDisconnectWithError error: NSError?) {}
    /// Does nothing.
    public func deviceDidReady(_ device: any DeviceConvertible) {}
}
