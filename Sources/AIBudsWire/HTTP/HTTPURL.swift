/// An `http://HOST[:PORT][/PATH]` URL, the only kind the data plane uses.
public struct HTTPURL: Hashable, Sendable, CustomStringConvertible {
    /// The host without brackets: a name, an IPv4 address or an IPv6 address.
    public var host: String
    /// The port; 80 when the URL has none.
    public var port: UInt16
    /// The path (and query) as written, starting with `/`.
    public var path: String

    /// Creates a URL from its parts.
    public init(host: String, port: UInt16, path: String = "/") {
        self.host = host
        self.port = port
        self.path = path.hasPrefix("/") ? path : "/" + path
    }

    /// Parses a URL; throws `HTTPError.invalidURL` for other schemes, user info, fragments,
    /// bad ports, spaces or control characters.
    public init(parsing text: String) throws {
        let invalid = { (why: String) in HTTPError(.invalidURL, "\"\(text.prefix(200))\": \(why)") }
        guard text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { throw invalid("spaces or non-ASCII characters") }
        guard text.lowercased().hasPrefix("http://") else { throw invalid("only http:// URLs are supported") }
        let rest = text.dropFirst(7)
        let authority = rest.prefix { $0 != "/" && $0 != "?" }
        var path = String(rest.dropFirst(authority.count))
        if path.isEmpty { path = "/" } else if path.hasPrefix("?") { path = "/" + path }
        guard !path.utf8.contains(UInt8(ascii: "#")) else { throw invalid("fragments are not allowed") }
        guard !authority.utf8.contains(UInt8(ascii: "@")) else { throw invalid("user information is not allowed") }
        var host: Substring
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw invalid("unclosed IPv6 bracket") }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw invalid("junk after the IPv6 address") }
                portText = after.dropFirst()
            }
        } else if let colon = authority.firstIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        } else {
            host = authority
        }
        guard !host.isEmpty else { throw invalid("no host") }
        var port: UInt16 = 80
        if let portText {
            guard let number = HTTPDecimal.parse(portText), number > 0, number <= 65535 else { throw invalid("bad port") }
            port = UInt16(number)
        }
        self.init(host: String(host), port: port, path: path)
    }

    /// The URL as text.
    public var description: String {
        let hostText = host.utf8.contains(UInt8(ascii: ":")) ? "[\(host)]" : host
        return "http://\(hostText):\(port)\(path)"
    }

    /// The `Host` header value.
    public var hostHeader: String {
        let hostText = host.utf8.contains(UInt8(ascii: ":")) ? "[\(host)]" : host
        return port == 80 ? hostText : "\(hostText):\(port)"
    }
}
