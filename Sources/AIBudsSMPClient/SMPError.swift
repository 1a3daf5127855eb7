import AIBudsWire

/// Why an SMP request failed: the one error type of the SMP client.
public struct SMPError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure.
    public enum Code: Sendable, Equatable {
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

    /// The kind of failure.
    public var code: Code
    /// What happened, in words, naming the request.
    public var message: String
    /// The error behind this one (a transport or decoding error), when there is one.
    public var underlying: (any Error)?

    /// Creates an SMP client failure of kind `code`, with `message` and the lower-level cause, if
    /// any.
    public init(_ code: Code, _ message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    /// The device error, when the device answered with a non-zero return code.
    public var deviceError: SMPDeviceError? {
        if case .device(let error) = code { return error }
        return nil
    }

    /// The message, followed by the underlying error when there is one.
    public var description: String {
        guard let underlying else { return message }
        return "\(message): \(underlying)"
    }
}
