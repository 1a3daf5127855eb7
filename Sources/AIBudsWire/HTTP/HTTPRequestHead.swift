/// The head of an HTTP/1.1 request: request line and header fields.
public struct HTTPRequestHead: Hashable, Sendable {
    /// The method, such as `GET`.
    public var method: String
    /// The request target as sent, such as `/media/a%20b.mp4`.
    public var target: String
    /// The protocol version.
    public var version: HTTPVersion
    /// The header fields.
    public var headers: HTTPHeaders

    /// Creates a request head.
    public init(method: String, target: String, version: HTTPVersion = .http1_1, headers: HTTPHeaders = HTTPHeaders()) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
    }

    /// Parses a complete head (through its blank line); throws `HTTPError`.
    public init(parsing head: UnsafeRawBufferPointer, limits: HTTPHeadLimits = .default) throws {
        let (line, headers) = try HTTPHeadParser.split(head, limits: limits)
        let parts = line.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].utf8.allSatisfy(HTTPHeadParser.isTokenByte),
            !parts[1].isEmpty, parts[1].utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        else {
            throw HTTPError(.malformedStartLine, "invalid request line \"\(line.prefix(200))\"")
        }
        self.init(method: String(parts[0]), target: String(parts[1]), version: try HTTPHeadParser.parseVersion(parts[2]), headers: headers)
    }

    /// Parses a complete head (through its blank line); throws `HTTPError`.
    public init(parsing head: [UInt8], limits: HTTPHeadLimits = .default) throws {
        self = try head.withUnsafeBytes { try HTTPRequestHead(parsing: $0, limits: limits) }
    }

    /// Whether the connection stays open after this exchange (RFC 9112 §9.3).
    public var keepAlive: Bool {
        if headers.containsToken("close", inFieldNamed: "Connection") { return false }
        return version == .http1_1 || headers.containsToken("keep-alive", inFieldNamed: "Connection")
    }

    /// The head as bytes for the wire.
    public func serialized() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        HTTPHeadParser.appendLatin1("\(method) \(target) \(version)", to: &bytes)
        bytes.append(contentsOf: [0x0D, 0x0A])
        HTTPHeadParser.appendFields(headers, to: &bytes)
        return bytes
    }
}
