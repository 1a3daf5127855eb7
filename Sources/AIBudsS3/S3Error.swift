/// Why an S3 request failed.
public struct S3Error: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure.
    public enum Kind: Sendable, Equatable {
        /// No credentials, or an unusable endpoint or location.
        case configuration
        /// The request never got an answer (connection refused, timeout, TLS).
        case network
        /// The store refused the credentials or the signature (HTTP 403 `InvalidAccessKeyId`,
        /// `SignatureDoesNotMatch`) or the action (`AccessDenied`).
        case denied
        /// A conditional write lost: an object with that key exists (HTTP 412).
        case preconditionFailed
        /// No such object, upload or bucket (HTTP 404).
        case notFound
        /// A part or an object arrived with other bytes than sent (a checksum mismatch).
        case integrity
        /// Any other error answer.
        case http
    }

    /// The kind of failure.
    public var kind: Kind
    /// What failed, with the store's error code and message when it sent one.
    public var message: String
    /// The HTTP status, when there was an answer.
    public var status: Int?

    /// Creates an error of `kind`; `status` is the HTTP status when the store answered.
    public init(_ kind: Kind, _ message: String, status: Int? = nil) {
        self.kind = kind
        self.message = message
        self.status = status
    }

    /// The message.
    public var description: String { message }
}
