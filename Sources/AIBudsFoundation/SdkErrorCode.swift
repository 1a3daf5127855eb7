import Foundation

/// The error domain of every `NSError` the SDK reports; `AIBudsSDK.ErrorDomain` re-exposes it.
///
/// Defined here, in the vocabulary module, so that modules below `AIBuds` can build SDK errors.
public let AIBudsErrorDomain = "AIBudsSDK.ErrorDomain"

/// The codes of the SDK's errors (domain `AIBudsSDK.ErrorDomain`), with the vendor's raw values.
///
/// Codes 1–6016 are the vendor's. Codes the vendor's range reserves but does not name (6000, 6017)
/// and the project's own codes (6100 and up, 7000 and up) are marked as such:
///
/// | range | whose | what |
/// |---|---|---|
/// | 1–4 | vendor | device state (not supported, not connected, not ready, busy) |
/// | 1001–1005 | vendor | scanning |
/// | 2001–2009 | vendor | the link and its packets |
/// | 3001–3003 | vendor | operations (wrong parameters, the device refused, unparsable answer) |
/// | 4001 | vendor | joining the hotspot |
/// | 6000–6017 | vendor | media import (6000 and 6017 reserved by the vendor, named here) |
/// | 6100–6102 | project | import cancelled, integrity mismatch, stale media model |
/// | 7001–7005 | project | stored devices, not initialized, no plugin, cancelled |
/// | 8001 and up | project | the AI side (`AIErrorCode`, domain `AIBudsAISDK.ErrorDomain`) |
///
/// These are the SDK's codes. The device's own status code, when the device answered (an SMP
/// `rc`: 0 ok, 1 unknown, 2 not found, 3 stale generation, 4 not supported, 5 busy, 6 invalid
/// argument, 7 bad state, 8 no space), travels beside it: in ``AIBudsError/deviceStatusCode``, in
/// the `NSError`'s `userInfo` under ``AIBudsError/deviceStatusCodeKey``, and as the `statusCode` of
/// the completion handlers that have one.
public enum SdkErrorCode: Int, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// An unexpected failure.
    case unknown = -1

    // MARK: Device state

    /// The device does not support the operation.
    case deviceNotSupport = 1
    /// A command needs a connected device, or the link closed while the command ran.
    case deviceNotConnected = 2
    /// The device is connected but not ready for commands yet.
    case deviceNotReady = 3
    /// The device is busy with another operation.
    case deviceBusy = 4

    // MARK: Scanning (1001–1005)

    /// Scanning failed because the radio is powered off.
    case scanningFailedDueToBluetoothPoweredOff = 1001
    /// Scanning failed because the app may not use the radio.
    case scanningFailedDueToBluetoothUnauthorized = 1002
    /// Scanning failed because the host has no usable radio.
    case scanningFailedDueToBluetoothUnsupported = 1003
    /// A scan is already running.
    case scanningAlreadyRunning = 1004
    /// The scan was canceled before it ended by itself.
    case scanningCanceled = 1005

    // MARK: Link (2001–2009)

    /// The peripheral cannot be reached.
    case peripheralUnavailable = 2001
    /// The vendor's code for a link that is down; the SMP plugin reports ``deviceNotConnected``
    /// instead.
    case peripheralNotConnected = 2002
    /// A packet could not be sent.
    case blePacketSendFailed = 2003
    /// Sending a packet timed out.
    case blePacketSendTimeout = 2004
    /// Writing a packet to the link failed.
    case blePacketWriteError = 2005
    /// A command got no response within the command timeout.
    case bleCommandExecFailedDueToTimeout = 2006
    /// A response arrived with an unexpected sequence number.
    case bleUnexpectedFrameSequence = 2007
    /// A packet's header or length is corrupt.
    case blePacketInfoCorrupted = 2008
    /// A response does not match its request.
    case bleFramesNotMatching = 2009

    // MARK: Operations (3001–3003)

    /// A parameter of the call is invalid.
    case operationFailedDueToWrongParameters = 3001
    /// The device answered with a non-success status code.
    case operationFailedDueToDeviceReturnNonSuccessStatusCode = 3002
    /// The device's response could not be parsed.
    case operationFailedDueToDeviceResponseDataParsingFailed = 3003

    // MARK: Hotspot (4001)

    /// Joining the device's hotspot failed.
    case hotspotConnectionFailed = 4001

    // MARK: Media file import (6000–6017)

    /// A media import failed for a reason no other code describes (project name for the vendor's 6000).
    case fileImportFailed = 6000
    /// The import engine is not ready (no media list fetched, or the device is not in transfer mode).
    case fileImportNotReady = 6001
    /// An import is already running on this device.
    case fileImportAlreadyInProgress = 6002
    /// No import is running, so there is nothing to cancel.
    case fileImportNotInProgress = 6003
    /// Configuring the device hotspot failed.
    case fileImportFailedDueToHotspotConfigureError = 6004
    /// The device did not enter file-transfer mode.
    case fileImportFailedDueToEnterFileTransferModeFailed = 6005
    /// The host could not join the device hotspot.
    case fileImportFailedDueToHotspotConnectionFailure = 6006
    /// The device reported an empty data-plane base URL.
    case fetchMediaFilesInfoFailedDueToEmptyBaseUrl = 6007
    /// The data-plane configuration URL is invalid.
    case fetchMediaFilesInfoFailedDueToInvalidConfigUrl = 6008
    /// The device's media configuration could not be read.
    case fetchMediaFilesInfoFailedDueToConfigFileError = 6009
    /// A network error occurred while fetching the media list.
    case fetchMediaFilesInfoFailedDueToNetworkError = 6010
    /// The device's media-list response is invalid.
    case fetchMediaFilesInfoFailedDueToInvalidResponse = 6011
    /// The media-list request got an HTTP error status.
    case fetchMediaFilesInfoFailedDueToHTTPError = 6012
    /// The connection to the device hotspot was lost during an import.
    case importFilesFailedDueToDeviceHotspotConnectionLost = 6013
    /// A download URL cannot be used: not `http`, a host that is not a numeric IP address, or a
    /// bearer token that is not valid.
    case importFilesFailedDueToInvalidURL = 6014
    /// A file download got an HTTP error status.
    case importFilesFailedDueToHTTPError = 6015
    /// A network error occurred while downloading a file.
    case importFilesFailedDueToNetworkError = 6016
    /// A local file could not be written, moved or read (project name for the vendor's 6017).
    case importFilesFailedDueToLocalFileError = 6017

    // MARK: Project codes (not in the vendor's release)

    /// The import was canceled by the app (project code).
    case importFilesCanceled = 6100
    /// A downloaded file's size or SHA-256 does not match the device's (project code).
    case importFilesFailedDueToIntegrityMismatch = 6101
    /// A media model came from a list generation that is no longer current (project code).
    case importFilesFailedDueToStaleMediaModel = 6102
    /// The stored-devices file exists but cannot be decoded; it was moved aside (project code).
    case storedDevicesCorrupted = 7001
    /// The stored-devices file could not be read or written (project code).
    case storedDevicesIOFailed = 7002
    /// `AIBudsSDK` was used before `initialize` succeeded (project code).
    case sdkNotInitialized = 7003
    /// No registered link plugin handles this device or address (project code).
    case pluginUnavailable = 7004
    /// The operation was canceled (project code).
    case operationCanceled = 7005

    /// A short English description of the code, used when no specific message is given.
    public var description: String {
        switch self {
        case .unknown: "unknown error"
        case .deviceNotSupport: "the device does not support this operation"
        case .deviceNotConnected: "the device is not connected"
        case .deviceNotReady: "the device is not ready"
        case .deviceBusy: "the device is busy"
        case .scanningFailedDueToBluetoothPoweredOff: "scanning failed: the radio is off"
        case .scanningFailedDueToBluetoothUnauthorized: "scanning failed: not authorized"
        case .scanningFailedDueToBluetoothUnsupported: "scanning failed: unsupported"
        case .scanningAlreadyRunning: "a scan is already running"
        case .scanningCanceled: "the scan was canceled"
        case .peripheralUnavailable: "the peripheral is unavailable"
        case .peripheralNotConnected: "the peripheral is not connected"
        case .blePacketSendFailed: "sending a packet failed"
        case .blePacketSendTimeout: "sending a packet timed out"
        case .blePacketWriteError: "writing a packet failed"
        case .bleCommandExecFailedDueToTimeout: "the command timed out"
        case .bleUnexpectedFrameSequence: "unexpected frame sequence"
        case .blePacketInfoCorrupted: "corrupt packet"
        case .bleFramesNotMatching: "response does not match the request"
        case .operationFailedDueToWrongParameters: "invalid parameters"
        case .operationFailedDueToDeviceReturnNonSuccessStatusCode: "the device returned an error status"
        case .operationFailedDueToDeviceResponseDataParsingFailed: "the device's response could not be parsed"
        case .hotspotConnectionFailed: "joining the device hotspot failed"
        case .fileImportFailed: "the media import failed"
        case .fileImportNotReady: "the media import is not ready"
        case .fileImportAlreadyInProgress: "a media import is already in progress"
        case .fileImportNotInProgress: "no media import is in progress"
        case .fileImportFailedDueToHotspotConfigureError: "configuring the device hotspot failed"
        case .fileImportFailedDueToEnterFileTransferModeFailed: "entering file-transfer mode failed"
        case .fileImportFailedDueToHotspotConnectionFailure: "connecting to the device hotspot failed"
        case .fetchMediaFilesInfoFailedDueToEmptyBaseUrl: "the device reported an empty base URL"
        case .fetchMediaFilesInfoFailedDueToInvalidConfigUrl: "invalid configuration URL"
        case .fetchMediaFilesInfoFailedDueToConfigFileError: "the media configuration could not be read"
        case .fetchMediaFilesInfoFailedDueToNetworkError: "network error while fetching the media list"
        case .fetchMediaFilesInfoFailedDueToInvalidResponse: "invalid media-list response"
        case .fetchMediaFilesInfoFailedDueToHTTPError: "HTTP error while fetching the media list"
        case .importFilesFailedDueToDeviceHotspotConnectionLost: "the device hotspot connection was lost"
        case .importFilesFailedDueToInvalidURL: "invalid file URL"
        case .importFilesFailedDueToHTTPError: "HTTP error while downloading a file"
        case .importFilesFailedDueToNetworkError: "network error while downloading a file"
        case .importFilesFailedDueToLocalFileError: "local file error"
        case .importFilesCanceled: "the import was canceled"
        case .importFilesFailedDueToIntegrityMismatch: "the downloaded file does not match the device's"
        case .importFilesFailedDueToStaleMediaModel: "the media model is stale; fetch the list again"
        case .storedDevicesCorrupted: "the stored-devices file is corrupt"
        case .storedDevicesIOFailed: "the stored-devices file could not be read or written"
        case .sdkNotInitialized: "AIBudsSDK is not initialized"
        case .pluginUnavailable: "no link plugin handles this device"
        case .operationCanceled: "the operation was canceled"
        }
    }
}
