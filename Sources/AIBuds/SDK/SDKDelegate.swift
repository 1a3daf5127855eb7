import Foundation

/// Receives scanning status and the connection events of every device; every method has an empty
/// default.
///
/// Passed to `AIBudsSDK.initialize(_:configuration:delegate:)`; the SDK holds it weakly. Callbacks
/// arrive in order on the SDK's callback queue.
public protocol SDKDelegate: AnyObject, Sendable {
    /// Scanning started (`true`) or stopped (`false`).
    func onScanningStatusChanged(_ isScanning: Bool)
    /// A connection attempt of any device began (an app's `connect`, or the first attempt of an
    /// automatic reconnection).
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
    // docs: empty defaults, so that a delegate implements only the callbacks it needs
    public func onScanningStatusChanged(_ isScanning: Bool) {}
    public func didStartConnectingDevice(_ device: any DeviceConvertible) {}
    public func didConnectedToDevice(_ device: any DeviceConvertible) {}
    public func didFailToConnectDevice(_ device: any DeviceConvertible, error: NSError?) {}
    public func device(_ device: any DeviceConvertible, didDisconnectWithError error: NSError?) {}
    public func deviceDidReady(_ device: any DeviceConvertible) {}
}
