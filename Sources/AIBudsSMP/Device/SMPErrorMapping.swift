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
    /// A transport failure that a transport already gave an SDK code (BlueZ's adapter off, link
    /// lost, device removed) keeps that code: it is mapped once, where it was known.
    var sdkError: AIBudsError {
        switch code {
        case .transport, .closed:
            if let known = underlying as? AIBudsError {
                return AIBudsError(known.code, known.message, underlying: self, deviceStatusCode: known.deviceStatusCode)
            }
        default: break
        }
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
