/// The head of an HTTP/1.1 request: request line and header fields.
public struct HTTPRequestHead: HTTPHead {
    /// The method, such as `GET`.
    public var method: String
    /// The request target as sent, such as `/media/a%20b.mp4`.
    public var target: String
    /// The protocol version.
    public var version: HTTPVersion
    /// The header fields.
    public var headers: HTTPHeaders

    /// Creates the request line `method target version` and the header fields that follow it.
    public init(method: String, target: String, version: HTTPVersion = .http1_1, headers: HTTPHeaders = HTTPHeaders()) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
    }

    /// Parses a complete head (through its blank line); throws `HTTPError`.
    public init(parsing head: UnsafeRawBufferPointer, limits: HTTPHeadLimits = .default) throws {
        let (line, headers) = try HTTPHeadParser.split(head, limits: limits)
        let parts = HTTPHeadParser.parts(of: line, maxParts: 4)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(HTTPHeadParser.isTokenByte),
            !parts[1].isEmpty, parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        else {
            throw HTTPError(.malformedStartLine, "invalid request line \"\(HTTPHeadParser.latin1(line).prefix(200))\"")
        }
        self.init(
            method: HTTPHeadParser.latin1(parts[0]), target: HTTPHeadParser.latin1(parts[1]), version: try HTTPHeadParser.parseVersion(parts[2]),
            headers: headers)
    }

    /// The request line: `METHOD TARGET VERSION`.
    public var startLine: String { "\(method) \(target) \(version)" }

    /// Appends the request line, part by part (one per download, so no interpolated string).
    public func appendStartLine(to bytes: inout [UInt8]) {
        HTTPHeadParser.appendLatin1(method, to: &bytes)
        bytes.append(0x20)
        HTTPHeadParser.appendLatin1(target, to: &bytes)
        bytes.append(0x20)
        version.append(to: &bytes)
    }
}
