/// What request and response heads share: a start line, the protocol version and header fields,
/// and so one keep-alive rule and one serialization.
public protocol HTTPHead: Hashable, Sendable {
    /// The protocol version.
    var version: HTTPVersion { get }
    /// The header fields.
    var headers: HTTPHeaders { get }
    /// The request line or status line, without its CRLF.
    var startLine: String { get }
    /// Parses a complete head (through its blank line); throws `HTTPError`.
    init(parsing head: UnsafeRawBufferPointer, limits: HTTPHeadLimits) throws
    /// Appends the start line (without its CRLF) as it goes on the wire: `startLine` in ISO-8859-1.
    func appendStartLine(to bytes: inout [UInt8])
}

extension HTTPHead {
    /// Parses a complete head (through its blank line); throws `HTTPError`.
    public init(parsing head: [UInt8], limits: HTTPHeadLimits = .default) throws {
        self = try head.withUnsafeBytes { try Self(parsing: $0, limits: limits) }
    }

    /// Whether the connection stays open after this exchange (RFC 9112 §9.3).
    public var keepAlive: Bool {
        if headers.containsToken("close", inFieldNamed: "Connection") { return false }
        return version == .http1_1 || headers.containsToken("keep-alive", inFieldNamed: "Connection")
    }

    /// Appends `startLine` in ISO-8859-1 (the heads of this module write theirs part by part).
    public func appendStartLine(to bytes: inout [UInt8]) {
        HTTPHeadParser.appendLatin1(startLine, to: &bytes)
    }

    /// The head as bytes for the wire.
    public func serialized() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        appendStartLine(to: &bytes)
        bytes.append(contentsOf: [0x0D, 0x0A])
        HTTPHeadParser.appendFields(headers, to: &bytes)
        return bytes
    }
}
