import AIBuds
import AIBudsFoundation
import AIBudsSMPClient
import AIBudsWire

extension SMPError {
    /// This SMP error as the SDK's error (domain `AIBudsSDK.ErrorDomain`).
    ///
    /// Timeouts become `bleCommandExecFailedDueToTimeout`; device return codes become
    /// `deviceNotSupport`, `deviceBusy`, `operationFailedDueToWrongParameters` or
    /// `operationFailedDueToDeviceReturnNonSuccessStatusCode` with the `rc` as the device status code.
    var sdkError: AIBudsError {
        switch code {
        case .timeout:
            return AIBudsError(.bleCommandExecFailedDueToTimeout, message, underlying: self)
        case .transport:
            return AIBudsError(.blePacketSendFailed, message, underlying: self)
        case .malformedResponse:
            return AIBudsError(.operationFailedDueToDeviceResponseDataParsingFailed, message, underlying: self)
        case .cancelled:
            return AIBudsError(.operationCanceled, message, underlying: self)
        case .closed:
            return AIBudsError(.deviceNotConnected, message, underlying: self)
        case .invalidRequest:
            return AIBudsError(.operationFailedDueToWrongParameters, message, underlying: self)
        case .verificationFailed:
            return AIBudsError(.importFilesFailedDueToIntegrityMismatch, message, underlying: self)
        case .localIO:
            return AIBudsError(.importFilesFailedDueToLocalFileError, message, underlying: self)
        case .device(let error):
            return AIBudsError(Self.sdkCode(for: error), message, underlying: self, deviceStatusCode: error.rc)
        }
    }

    private static func sdkCode(for error: SMPDeviceError) -> SdkErrorCode {
        if let project = error.projectReturnCode {
            switch project {
            case .notSupported: return .deviceNotSupport
            case .busy: return .deviceBusy
            case .invalidArgument: return .operationFailedDueToWrongParameters
            default: return .operationFailedDueToDeviceReturnNonSuccessStatusCode
            }
        }
        switch error.mgmtError {
        case .notSupported?: return .deviceNotSupport
        case .busy?: return .deviceBusy
        case .invalidValue?: return .operationFailedDueToWrongParameters
        default: return .operationFailedDueToDeviceReturnNonSuccessStatusCode
        }
    }
}
