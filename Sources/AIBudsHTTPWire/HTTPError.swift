import AIBudsErrors

/// An error in HTTP/1.1 syntax: a malformed or oversized message head, a bad header value.
///
/// The kinds of failure are ``HTTPErrorCode``.
public typealias HTTPError = CodedError<HTTPErrorCode>

/// The kind of syntax error.
public enum HTTPErrorCode: String, Hashable, Sendable, CodedErrorCode {
    /// The head is larger than `HTTPHeadLimits.maxHeadBytes`.
    case headTooLarge
    /// The head has more header fields than `HTTPHeadLimits.maxHeaderCount`.
    case tooManyHeaders
    /// The request line or status line is malformed.
    case malformedStartLine
    /// A header field line is malformed (bad name, control bytes, folded line, bare CR or LF).
    case malformedHeader
    /// An HTTP version other than 1.0 or 1.1.
    case unsupportedVersion
    /// `Content-Length` is not a single non-negative decimal number.
    case invalidContentLength
    /// A `Transfer-Encoding` this implementation does not support.
    case unsupportedTransferEncoding
    /// A `%` escape is malformed, or the decoded bytes are not UTF-8.
    case invalidPercentEncoding
    /// A `Range` header this implementation cannot parse (syntax, several ranges, other units).
    case invalidRange
    /// A `Content-Range` header that cannot be parsed.
    case invalidContentRange
    /// A URL that is not `http://HOST[:PORT][/PATH]`.
    case invalidURL
    /// A bearer token with characters outside RFC 6750's token68.
    case invalidToken

    /// The code's name: a description reads `headTooLarge: …`.
    public var descriptionPrefix: String? { rawValue }
}
