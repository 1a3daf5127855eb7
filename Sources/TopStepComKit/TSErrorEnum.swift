/// The TopStep error codes, as `NSError.code` in `TSErrorDomain`.
public enum TSErrorEnum: Int, Sendable, Hashable, CaseIterable {
    /// An unknown error.
    case unknown = 1001
    /// The SDK failed to initialise.
    case sdkInitFailed = 1002
    /// The license is missing or invalid.
    case licenseError = 1003
    /// The configuration is invalid.
    case configError = 1004

    /// The device is not ready.
    case notReady = 2001
    /// The device's battery is too low.
    case lowBattery = 2002
    /// No device is bound, or the bound device is not connected.
    case notConnected = 2003
    /// The device does not support the operation for this media type.
    case notSupported = 2004
    /// There is no space left (on the device or for the download).
    case noSpace = 2005
    /// The device is busy.
    case busy = 2006

    /// A parameter is invalid, for example a made-up identifier or one from another device.
    case invalidParameter = 3001
    /// A parameter was valid once but is no longer, for example a model from a list that has since
    /// been invalidated.
    case parameterError = 3002
    /// The media type is not valid for the operation.
    case invalidType = 3003
    /// A parameter has the wrong size.
    case parameterSizeError = 3004

    /// Getting data failed.
    case dataGetFailed = 4001
    /// Setting (storing) data failed, for example writing the downloaded file.
    case dataSetFailed = 4002
    /// The data has the wrong format, for example a file that does not match the device's hash.
    case dataFormatError = 4003
    /// The data is empty.
    case dataEmpty = 4004

    /// A previous task is still running.
    case previousTaskExecuting = 5001
    /// The task failed.
    case taskFailed = 5002
    /// The task did not start.
    case taskNotStarted = 5003

    /// The device did not answer in time.
    case timeout = 6001
    /// The transfer was interrupted (the link dropped and could not be resumed).
    case transmissionInterrupted = 6002
    /// Radio interference.
    case interference = 6003
    /// Packets were lost.
    case packetLoss = 6004
    /// The device answered with something this SDK does not understand.
    case protocolMismatch = 6005
    /// The connection was reset.
    case connectionReset = 6006
    /// A buffer overflowed.
    case bufferOverflow = 6007
    /// The channel is busy.
    case channelBusy = 6008

    /// The user cancelled.
    case userCancelled = 7001
}
