import AIBudsErrors
import AIBudsWire

/// Why an SMP request failed: the one error type of the SMP client.
///
/// The kinds of failure are ``SMPErrorCode``.
public typealias SMPError = CodedError<SMPErrorCode>

/// The kind of failure.
public enum SMPErrorCode: Sendable, Equatable, CodedErrorCode {
    /// No response arrived in time, after every retransmission.
    case timeout
    /// The transport could not send (or broke while the request was in flight).
    case transport
    /// The response could not be understood (not a CBOR map, or not the expected message).
    case malformedResponse
    /// The device answered with a non-zero return code.
    case device(SMPDeviceError)
    /// The calling task was cancelled; the request's sequence number is free again.
    case cancelled
    /// The client was closed.
    case closed
    /// The request cannot be sent as asked (it does not encode, or exceeds the MTU).
    case invalidRequest
    /// A file transfer's content differs from what the device reports (size or hash).
    case verificationFailed
    /// Storing downloaded bytes (or reading bytes to upload) failed on this side.
    case localIO
}

extension CodedError where Code == SMPErrorCode {
    /// The device error, when the device answered with a non-zero return code.
    public var deviceError: SMPDeviceError? {
        if case .device(let error) = code { return error }
        return nil
    }
}
