/// Called for every device a scan reports; `isExistingDevice` is `true` when the device was already
/// reported in this scan and this is an update of its advertisement or RSSI.
public typealias AIBudsScanningOnDeviceFoundHandler =
    @Sendable (_ device: any FoundDeviceConvertible, _ isExistingDevice: Bool) -> Void

/// Called once when a scan stops (timeout, `stopScanning()`, or failure).
public typealias AIBudsOnScanStopHandler = @Sendable () -> Void
