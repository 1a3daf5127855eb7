import AIBudsCBOR
import Foundation

/// One SMP packet: a header and its CBOR payload bytes.
public struct SMPPacket: Sendable, Equatable {
    /// The header; `header.length` equals `payload.count` for packets made by the initialisers here.
    public var header: SMPHeader
    /// The payload bytes (one CBOR map in a valid packet).
    public var payload: Data

    /// Creates a packet around a header and payload as given.
    public init(header: SMPHeader, payload: Data) {
        self.header = header
        self.payload = payload
    }

    /// Creates a packet and sets the header's length from the payload.
    ///
    /// A payload longer than 65,535 bytes cannot be framed; its length field is clamped, and
    /// ``encoded()`` of such a packet would not decode. Use ``SMPRequest/packet(sequence:version:)`` for checked framing.
    public init(operation: SMPOperation, version: SMPVersion = .v2, group: UInt16, sequence: UInt8,
                command: UInt8, payload: Data) {
        self.header = SMPHeader(operation: operation, version: version, flags: 0,
                                length: UInt16(clamping: payload.count), group: group,
                                sequence: sequence, command: command)
        self.payload = payload
    }

    /// Creates a packet whose payload is the encoding of `map` (normally a `.map`).
    public init(operation: SMPOperation, version: SMPVersion = .v2, group: UInt16, sequence: UInt8,
                command: UInt8, cbor map: CBOR) {
        self.init(operation: operation, version: version, group: group, sequence: sequence,
                  command: command, payload: Data(map.encoded()))
    }

    /// The header and payload bytes, ready to send as one datagram.
    public func encoded() -> Data {
        var bytes = Data(header.encoded())
        bytes.append(payload)
        return bytes
    }

    /// Decodes a datagram: the header and a length check only (the payload is not parsed).
    public static func decode(_ datagram: some Collection<UInt8>) throws(SMPPacketError) -> SMPPacket {
        let header = try SMPHeader.decode(datagram)
        let payloadCount = datagram.count - SMPHeader.size
        guard Int(header.length) == payloadCount else {
            throw SMPPacketError(.lengthMismatch, "header says \(header.length) payload bytes but \(payloadCount) follow")
        }
        return SMPPacket(header: header, payload: Data(datagram.dropFirst(SMPHeader.size)))
    }

    /// The payload decoded as CBOR; it must be exactly one map. An empty payload reads as `{}`
    /// (docs/protocol.md §1).
    public func payloadMap(limits: CBORLimits = .default) throws(CBORError) -> CBOR {
        guard !payload.isEmpty else { return .map([:]) }
        let value = try CBOR.decode(payload, limits: limits)
        guard case .map = value else {
            throw CBORError(.unexpectedType, offset: 0, "an SMP payload must be a map, not a \(value.kindName)")
        }
        return value
    }
}
