import AIBudsFoundation
import AIBudsSMPClient
import AIBudsWire
import Foundation

extension TSError {
    /// The TopStep error for a failure of a media channel call about `subject` (`'name'` or `the
    /// request`).
    ///
    /// The channel throws `AIBudsError`s. One that an SMP request caused keeps the `SMPError` as
    /// its cause, which tells a timeout, a broken link, a full disk or the device's return code
    /// apart; any other failure is `notConnected` when the device is gone, the TopStep code of the
    /// SDK's code where there is one (not supported, busy, not ready, timeout, cancelled), else
    /// `taskFailed`.
    init(channelError error: any Error, subject: String, connected: Bool) {
        let sdkError = AIBudsError.from(error)
        if let error = error as? TSError {
            self = error
        } else if let cause = sdkError.underlying as? SMPError {
            self = Self(cause, subject: subject)
        } else if !connected || sdkError.code == .deviceNotConnected {
            self = TSError(.notConnected, "the device disconnected", underlying: error)
        } else if let code = Self.code(for: sdkError.code) {
            self = TSError(code, "\(subject): \(sdkError.message)", underlying: error)
        } else {
            self = TSError(.taskFailed, "the device call failed", underlying: error)
        }
    }

    /// The TopStep code that says what an SDK code says, nil where none does.
    private static func code(for code: SdkErrorCode) -> TSErrorEnum? {
        switch code {
        case .deviceNotSupport: .notSupported
        case .deviceBusy: .busy
        case .deviceNotReady: .notReady
        case .blePacketSendTimeout, .bleCommandExecFailedDueToTimeout: .timeout
        case .operationCanceled: .userCancelled
        default: nil
        }
    }

    /// The TopStep error for an SMP client error.
    private init(_ error: SMPError, subject: String) {
        switch error.code {
        case .timeout:
            self = TSError(.timeout, "the device did not answer \(subject) in time", underlying: error)
        case .transport:
            self = TSError(.transmissionInterrupted, "the link to the device broke during \(subject)", underlying: error)
        case .closed:
            self = TSError(.notConnected, "the device disconnected during \(subject)", underlying: error)
        case .cancelled:
            self = TSError(.userCancelled, "\(subject) was cancelled", underlying: error)
        case .malformedResponse:
            self = TSError(.protocolMismatch, "the device's answer to \(subject) is not understood", underlying: error)
        case .invalidRequest:
            self = TSError(.invalidParameter, "\(subject) cannot be sent to the device", underlying: error)
        case .verificationFailed:
            self = TSError(.dataFormatError, "\(subject) does not match the device's SHA-256", underlying: error)
        case .localIO:
            if let posix = (error.underlying as? CocoaError)?.underlying as? POSIXError, posix.code == .ENOSPC {
                self = TSError(.noSpace, "no space left to store \(subject)", underlying: error)
            } else {
                self = TSError(.dataSetFailed, "cannot store \(subject)", underlying: error)
            }
        case .device(let device):
            self = Self(device, subject: subject, error: error)
        }
    }

    /// The TopStep error for a device return code.
    private init(_ device: SMPDeviceError, subject: String, error: SMPError) {
        if let code = device.projectReturnCode {
            switch code {
            case .staleGeneration, .notFound:
                self = TSError(.parameterError, "\(subject) is no longer on the device's current list; fetch it again", underlying: error)
            case .notSupported: self = TSError(.notSupported, "the device does not support \(subject)", underlying: error)
            case .busy: self = TSError(.busy, "the device is busy", underlying: error)
            case .invalidArgument: self = TSError(.invalidParameter, "the device rejected \(subject)", underlying: error)
            case .badState: self = TSError(.notReady, "the device is not ready for \(subject)", underlying: error)
            case .noSpace: self = TSError(.noSpace, "the device's storage is full", underlying: error)
            case .ok, .unknown: self = TSError(.taskFailed, "the device failed \(subject)", underlying: error)
            }
            return
        }
        if device.group == SMPGroupID.file {
            // Zephyr's FS_MGMT_ERR codes: 3 file not found, 13 hash type not found.
            switch device.rc {
            case 3: self = TSError(.parameterError, "\(subject) is no longer on the device; fetch the list again", underlying: error)
            case 13: self = TSError(.notSupported, "the device has no SHA-256 for \(subject)", underlying: error)
            default: self = TSError(.taskFailed, "the device failed \(subject)", underlying: error)
            }
            return
        }
        switch device.mgmtError {
        case .noEntry?: self = TSError(.parameterError, "\(subject) is no longer on the device; fetch the list again", underlying: error)
        case .notSupported?: self = TSError(.notSupported, "the device does not support \(subject)", underlying: error)
        case .busy?: self = TSError(.busy, "the device is busy", underlying: error)
        case .invalidValue?: self = TSError(.invalidParameter, "the device rejected \(subject)", underlying: error)
        case .badState?: self = TSError(.notReady, "the device is not ready for \(subject)", underlying: error)
        case .noMemory?: self = TSError(.noSpace, "the device is out of space", underlying: error)
        case .timeout?: self = TSError(.timeout, "the device timed out on \(subject)", underlying: error)
        default: self = TSError(.taskFailed, "the device failed \(subject)", underlying: error)
        }
    }
}
