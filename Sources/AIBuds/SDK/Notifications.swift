import Foundation

extension Notification.Name {
    /// A scan could not start; `userInfo[AIBudsSDK.ErrorKey]` holds the `NSError`.
    public static let scanningStartFailed = Notification.Name("AIBudsSDK.scanningStartFailed")
    /// A scan was stopped by `stopScanning()` before its timeout.
    public static let scanningCanceled = Notification.Name("AIBudsSDK.scanningCanceled")
    /// A scan started.
    public static let scanningStart = Notification.Name("AIBudsSDK.scanningStart")
    /// A scan stopped (for any reason).
    public static let scanningStop = Notification.Name("AIBudsSDK.scanningStop")
    /// A scan found a new device; `userInfo[AIBudsSDK.FoundDeviceKey]` holds it.
    public static let deviceFound = Notification.Name("AIBudsSDK.deviceFound")
    /// A scan reported a device again; `userInfo[AIBudsSDK.FoundDeviceKey]` holds it.
    public static let deviceUpdate = Notification.Name("AIBudsSDK.deviceUpdate")
    /// The stored device list changed (added, removed, moved, loaded).
    public static let storedDevicesChanged = Notification.Name("AIBudsSDK.storedDevicesChanged")
}
