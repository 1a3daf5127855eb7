/// The TopStep error codes, as `NSError.code` in `TSErrorDomain`.
public enum TSErrorEnum: Int, Sendable, Hashable, CaseIterable {
    /// TopStep's catch-all code; this facade always reports a more specific one.
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

    /// Reading data back failed, for example a downloaded file that cannot be read to check its
    /// size and SHA-256.
    case dataGetFailed = 4001
    /// Setting (storing) data failed, for example writing the downloaded file.
    case dataSetFailed = 4002
    /// The data has the wrong format, for example a file that does not match the device's hash.
    case dataFormatError = 4003
    /// A TopStep code for missing data that this facade does not produce.
    case dataEmpty = 4004

    /// A previous task is still running.
    case previousTaskExecuting = 5001
    /// The device refused or failed the request, and no more specific code fits its answer.
    case taskFailed = 5002
    /// A TopStep code this facade does not produce: its requests either run or fail with a reason.
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
    /// A TopStep link code this facade does not produce; a download treats it as worth retrying.
    case connectionReset = 6006
    /// A TopStep code this facade does not produce (its buffers grow as needed).
    case bufferOverflow = 6007
    /// A TopStep link code this facade does not produce; a download treats it as worth retrying.
    case channelBusy = 6008

    /// The caller's task was cancelled while the request was running.
    case userCancelled = 7001
}
