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
        // Over the URL's bytes: it is ASCII or invalid, and a download parses one per file.
        var copy = text
        let parsed = copy.withUTF8 { Self.parse($0) }
        switch parsed {
        case .success(let url): self = url
        case .failure(let why): throw HTTPError(.invalidURL, "\"\(text.prefix(200))\": \(why.rawValue)")
        }
    }

    /// Why a URL was refused.
    private enum Refusal: String, Error {
        case characters = "spaces or non-ASCII characters"
        case scheme = "only http:// URLs are supported"
        case fragment = "fragments are not allowed"
        case userInformation = "user information is not allowed"
        case bracket = "unclosed IPv6 bracket"
        case junk = "junk after the IPv6 address"
        case host = "no host"
        case port = "bad port"
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<HTTPURL, Refusal> {
        guard bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return .failure(.characters) }
        let scheme = Array("http://".utf8)
        guard bytes.count >= scheme.count, zip(bytes, scheme).allSatisfy({ $0 | ($0 >= 0x41 && $0 <= 0x5A ? 0x20 : 0) == $1 }) else {
            return .failure(.scheme)
        }
        let authorityStart = scheme.count
        var pathStart = authorityStart
        while pathStart < bytes.count, bytes[pathStart] != UInt8(ascii: "/"), bytes[pathStart] != UInt8(ascii: "?") { pathStart += 1 }
        let authority = UnsafeBufferPointer(rebasing: bytes[authorityStart..<pathStart])
        let rest = UnsafeBufferPointer(rebasing: bytes[pathStart...])
        guard !rest.contains(UInt8(ascii: "#")) else { return .failure(.fragment) }
        guard !authority.contains(UInt8(ascii: "@")) else { return .failure(.userInformation) }
        var host: UnsafeBufferPointer<UInt8>
        var portText: UnsafeBufferPointer<UInt8>?
        if authority.first == UInt8(ascii: "[") {
            guard let close = authority.firstIndex(of: UInt8(ascii: "]")) else { return .failure(.bracket) }
            host = UnsafeBufferPointer(rebasing: authority[1..<close])
            let after = UnsafeBufferPointer(rebasing: authority[(close + 1)...])
            if !after.isEmpty {
                guard after.first == UInt8(ascii: ":") else { return .failure(.junk) }
                portText = UnsafeBufferPointer(rebasing: after[1...])
            }
        } else if let colon = authority.firstIndex(of: UInt8(ascii: ":")) {
            host = UnsafeBufferPointer(rebasing: authority[..<colon])
            portText = UnsafeBufferPointer(rebasing: authority[(colon + 1)...])
        } else {
            host = authority
        }
        guard !host.isEmpty else { return .failure(.host) }
        var port: UInt16 = 80
        if let portText {
            guard !portText.isEmpty, portText.count <= 18, portText.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return .failure(.port) }
            let number = portText.reduce(Int64(0)) { $0 * 10 + Int64($1 - 0x30) }
            guard number > 0, number <= 65535 else { return .failure(.port) }
            port = UInt16(number)
        }
        let path: String
        if rest.isEmpty {
            path = "/"
        } else if rest.first == UInt8(ascii: "?") {
            path = "/" + String(decoding: rest, as: UTF8.self)
        } else {
            path = String(decoding: rest, as: UTF8.self)
        }
        return .success(HTTPURL(host: String(decoding: host, as: UTF8.self), port: port, path: path))
    }

    /// The URL as text.
    public var description: String {
        let hostText = host.utf8.contains(UInt8(ascii: ":")) ? "[\(host)]" : host
        return "http://\(hostText):\(port)\(path)"
    }

    /// What the `Host` header says: the host (bracketed when IPv6), then `:port` unless it is 80.
    public var hostHeader: String {
        let hostText = host.utf8.contains(UInt8(ascii: ":")) ? "[\(host)]" : host
        return port == 80 ? hostText : "\(hostText):\(port)"
    }
}
