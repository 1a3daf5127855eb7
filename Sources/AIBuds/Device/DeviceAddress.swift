import AIBudsFoundation
import Foundation

/// Where a device is reached: `udp://HOST:PORT` (SMP over UDP, docs/protocol.md) or
/// `ble://AA:BB:CC:DD:EE:FF` (a Bluetooth LE device address, reached through BlueZ; port 0).
public struct DeviceAddress: Hashable, Sendable, Codable, LosslessStringConvertible {
    /// The SMP/UDP default port.
    public static let defaultPort: UInt16 = 1337

    /// The transport scheme, `udp`.
    public var scheme: String
    /// A host name or IP address (IPv6 without brackets).
    public var host: String
    /// The port number the device listens on (a UDP port for the `udp` scheme).
    public var port: UInt16

    /// Creates the address `scheme://host:port`; the SMP plugin speaks `udp`.
    public init(scheme: String = "udp", host: String, port: UInt16) {
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    /// Parses `udp://HOST[:PORT]` (IPv6 hosts in brackets); `nil` when the text is not such an address.
    public init?(_ description: String) {
        try? self.init(parsing: description)
    }

    /// Parses `udp://HOST[:PORT]`, throwing `operationFailedDueToWrongParameters` with the reason.
    public init(parsing text: String) throws {
        func bad(_ why: String) -> AIBudsError {
            AIBudsError(.operationFailedDueToWrongParameters, "invalid device address \"\(text)\": \(why)")
        }
        guard let separator = text.range(of: "://") else { throw bad("expected udp://HOST:PORT") }
        let scheme = text[..<separator.lowerBound].lowercased()
        if scheme == "ble" {
            let mac = text[separator.upperBound...].uppercased()
            let parts = mac.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 6, parts.allSatisfy({ $0.count == 2 && UInt8($0, radix: 16) != nil }) else {
                throw bad("expected ble://AA:BB:CC:DD:EE:FF")
            }
            self.init(scheme: "ble", host: mac, port: 0)
            return
        }
        guard scheme == "udp" else { throw bad("unsupported scheme \(scheme)") }
        var rest = Substring(text[separator.upperBound...])
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        var host: Substring
        var portText: Substring?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw bad("unclosed [") }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { throw bad("unexpected text after ]") }
                portText = after.dropFirst()
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            portText = rest[rest.index(after: colon)...]
        } else {
            host = rest
        }
        guard !host.isEmpty, !host.contains("/"), !host.contains(" ") else { throw bad("missing or invalid host") }
        var port = Self.defaultPort
        if let portText {
            guard let value = UInt16(portText), value > 0 else { throw bad("invalid port") }
            port = value
        }
        self.init(scheme: scheme, host: String(host), port: port)
    }

    /// `udp://HOST:PORT`, with an IPv6 host in brackets.
    public var description: String {
        if scheme == "ble" { return "ble://\(host)" }
        return host.contains(":") ? "\(scheme)://[\(host)]:\(port)" : "\(scheme)://\(host):\(port)"
    }

    /// Encodes as the `udp://HOST:PORT` text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// Decodes from the `udp://HOST:PORT` text.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do {
            try self.init(parsing: text)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\(error)"))
        }
    }
}
