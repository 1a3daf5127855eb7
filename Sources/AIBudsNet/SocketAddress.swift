#if canImport(Glibc)
import Glibc
#endif

/// A numeric IP address (v4 or v6) and a port, such as `127.0.0.1:8080` or `[::1]:8080`.
public struct SocketAddress: Hashable, Sendable, CustomStringConvertible {
    /// The numeric host, without brackets.
    public var host: String
    /// The port; 0 asks the system to choose one when binding.
    public var port: UInt16

    /// Creates an address from a numeric host and a port (not validated until used).
    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST:PORT`, with an IPv6 host in brackets; throws `NetError.invalidAddress`.
    public init(parsing text: String) throws {
        let hostPart: Substring
        let portPart: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw NetError(.invalidAddress, "expected [IPv6]:PORT, got \"\(text)\"")
            }
            hostPart = text[text.index(after: text.startIndex)..<close]
            portPart = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":") else {
                throw NetError(.invalidAddress, "expected HOST:PORT, got \"\(text)\"")
            }
            hostPart = text[..<colon]
            portPart = text[text.index(after: colon)...]
            guard !hostPart.contains(":") else {
                throw NetError(.invalidAddress, "an IPv6 host needs brackets: \"\(text)\"")
            }
        }
        guard !portPart.isEmpty, portPart.utf8.count <= 5, portPart.allSatisfy(\.isASCII),
            portPart.allSatisfy(\.isNumber), let port = UInt16(portPart)
        else {
            throw NetError(.invalidAddress, "invalid port in \"\(text)\"")
        }
        self.init(host: String(hostPart), port: port)
        guard family != nil else {
            throw NetError(.invalidAddress, "host \"\(hostPart)\" is not a numeric IPv4 or IPv6 address")
        }
    }

    /// `HOST:PORT`, with an IPv6 host in brackets.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// `AF_INET` or `AF_INET6` for a valid numeric host, else nil.
    public var family: Int32? {
        var v4 = in_addr()
        if inet_pton(AF_INET, host, &v4) == 1 { return AF_INET }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, host, &v6) == 1 { return AF_INET6 }
        return nil
    }

    /// Calls `body` with this address as a `sockaddr`; throws `NetError.invalidAddress` for a bad host.
    public func withSockAddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws -> R) throws -> R {
        var v4 = sockaddr_in()
        if inet_pton(AF_INET, host, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            return try withUnsafePointer(to: &v4) {
                try $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    try body($0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        }
        var v6 = sockaddr_in6()
        if inet_pton(AF_INET6, host, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
            return try withUnsafePointer(to: &v6) {
                try $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    try body($0, socklen_t(MemoryLayout<sockaddr_in6>.size))
                }
            }
        }
        throw NetError(.invalidAddress, "host \"\(host)\" is not a numeric IPv4 or IPv6 address")
    }

    /// Reads an IPv4 or IPv6 address out of a `sockaddr_storage`; nil for other families.
    public init?(storage: sockaddr_storage) {
        var storage = storage
        let family = Int32(storage.ss_family)
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch family {
        case AF_INET:
            let address = withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee }
            }
            var raw = address.sin_addr
            guard inet_ntop(AF_INET, &raw, &text, socklen_t(text.count)) != nil else { return nil }
            self.init(host: SocketAddress.string(fromNul: text), port: UInt16(bigEndian: address.sin_port))
        case AF_INET6:
            let address = withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee }
            }
            var raw = address.sin6_addr
            guard inet_ntop(AF_INET6, &raw, &text, socklen_t(text.count)) != nil else { return nil }
            self.init(host: SocketAddress.string(fromNul: text), port: UInt16(bigEndian: address.sin6_port))
        default:
            return nil
        }
    }

    /// Decodes NUL-terminated C text.
    private static func string(fromNul text: [CChar]) -> String {
        let bytes = text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The local (`getsockname`) or remote (`getpeername`) address of a socket.
    static func of(socket fd: Int32, peer: Bool) -> SocketAddress? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                peer ? getpeername(fd, $0, &length) : getsockname(fd, $0, &length)
            }
        }
        return result == 0 ? SocketAddress(storage: storage) : nil
    }

    /// The address a socket was just bound to (its port chosen by the system when 0 was asked).
    static func bound(socket fd: Int32) throws -> SocketAddress {
        guard let bound = of(socket: fd, peer: false) else { throw NetError.posix(.bindFailed, "getsockname") }
        return bound
    }
}
