import AIBudsFoundation
import AIBudsTransfer

/// Maps the failures of one file's import to the SDK's error codes.
enum ImportErrorMapping {
    /// The `AIBudsError` for a download failure of `file`.
    static func error(for error: any Error, file: MediaFileInfoModel) -> AIBudsError {
        guard let transfer = error as? TransferError else {
            if let error = error as? AIBudsError { return error }
            return AIBudsError(.importFilesFailedDueToLocalFileError, "'\(file.fileName)': \(error)", underlying: error)
        }
        let name = "'\(file.fileName)'"
        let code: SdkErrorCode
        var message = "\(name): \(transfer.message)"
        switch transfer.code {
        case .invalidURL: code = .importFilesFailedDueToInvalidURL
        case .connectionFailed: code = .importFilesFailedDueToNetworkError
        // A data plane that stalls or never answers holds nothing back: like a lost hotspot, it
        // ends the files not started yet.
        case .connectionLost, .stalled, .responseHeadTimeout: code = .importFilesFailedDueToDeviceHotspotConnectionLost
        case .invalidResponse: code = .importFilesFailedDueToHTTPError
        case .httpStatus:
            switch transfer.httpStatus {
            case 404?:
                code = .importFilesFailedDueToStaleMediaModel
                message = "\(name) is no longer on the device; fetch the media list again"
            case 401?:
                code = .importFilesFailedDueToHTTPError
                message = "the device rejected this transfer session's token for \(name); fetch the media list again"
            default:
                code = .importFilesFailedDueToHTTPError
            }
        case .sizeMismatch, .checksumMismatch: code = .importFilesFailedDueToIntegrityMismatch
        case .fileExists, .unsafeFileName, .localFileError: code = .importFilesFailedDueToLocalFileError
        case .sinkFailed: code = .fileImportFailed
        case .cancelled: code = .importFilesCanceled
        }
        return AIBudsError(code, message, underlying: transfer)
    }

    /// The `AIBudsError` for a failed request of the device's SHA-256 of `file`, asked over the
    /// control link: the link's own code when it gave one (a disconnect stays
    /// `deviceNotConnected`, a timeout `bleCommandExecFailedDueToTimeout`, a refusal
    /// `operationFailedDueToDeviceReturnNonSuccessStatusCode` with the device's status), else
    /// `importFilesFailedDueToNetworkError`.
    static func hashRequestError(_ error: any Error, file: MediaFileInfoModel) -> AIBudsError {
        let cause = AIBudsError.from(error)
        return AIBudsError(
            cause.code == .unknown ? .importFilesFailedDueToNetworkError : cause.code,
            "asking the device for the SHA-256 of '\(file.fileName)' failed: \(cause.message)",
            underlying: error, deviceStatusCode: cause.deviceStatusCode)
    }
}
