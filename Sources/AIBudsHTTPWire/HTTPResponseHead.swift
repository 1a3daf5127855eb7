/// The head of an HTTP/1.1 response: status line and header fields.
public struct HTTPResponseHead: HTTPHead {
    /// The protocol version.
    public var version: HTTPVersion
    /// The status code, 100–999.
    public var status: Int
    /// The reason phrase, for people only.
    public var reason: String
    /// The header fields.
    public var headers: HTTPHeaders

    /// Creates a response head; an empty reason takes the standard phrase of the status.
    public init(status: Int, reason: String = "", version: HTTPVersion = .http1_1, headers: HTTPHeaders = HTTPHeaders()) {
        self.version = version
        self.status = status
        self.reason = reason.isEmpty ? HTTPResponseHead.standardReason(status) : reason
        self.headers = headers
    }

    /// Parses a complete head (through its blank line); throws `HTTPError`.
    public init(parsing head: UnsafeRawBufferPointer, limits: HTTPHeadLimits = .default) throws {
        let (line, headers) = try HTTPHeadParser.split(head, limits: limits)
        let parts = HTTPHeadParser.parts(of: line, maxParts: 3)
        guard parts.count >= 2, parts[1].count == 3, parts[1].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), parts[1][0] != 0x30 else {
            throw HTTPError(.malformedStartLine, "invalid status line \"\(HTTPHeadParser.latin1(line).prefix(200))\"")
        }
        // reason-phrase = *( HTAB / SP / VCHAR / obs-text ) (RFC 9112 §4): no NUL or other control.
        if parts.count == 3, !parts[2].allSatisfy({ $0 == 0x09 || $0 >= 0x20 && $0 != 0x7F }) {
            throw HTTPError(.malformedStartLine, "control characters in the reason phrase of \"\(HTTPHeadParser.latin1(line).prefix(200))\"")
        }
        let status = parts[1].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        let version = try HTTPHeadParser.parseVersion(parts[0])
        self.init(status: status, reason: parts.count == 3 ? HTTPHeadParser.latin1(parts[2]) : "", version: version, headers: headers)
    }

    /// The status line: `VERSION STATUS REASON`.
    public var startLine: String { "\(version) \(status) \(reason)" }

    /// Appends the status line, part by part (one per response, so no interpolated string).
    public func appendStartLine(to bytes: inout [UInt8]) {
        version.append(to: &bytes)
        bytes.append(0x20)
        HTTPHeadParser.appendLatin1(String(status), to: &bytes)
        bytes.append(0x20)
        HTTPHeadParser.appendLatin1(reason, to: &bytes)
    }

    /// The standard reason phrase of the statuses this project uses.
    public static func standardReason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 206: "Partial Content"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 413: "Content Too Large"
        case 416: "Range Not Satisfiable"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Status \(status)"
        }
    }
}
