import AIBudsCBOR
import Foundation

extension SMPRequest {
    /// The CBOR payload of this request (one map).
    public func payload() throws -> Data {
        try CBOREncoder().encode(self)
    }

    /// A packet carrying this request.
    ///
    /// Throws ``SMPPacketError`` with code `payloadTooLarge` when the payload exceeds 65,535 bytes.
    public func packet(sequence: UInt8, version: SMPVersion = .v2) throws -> SMPPacket {
        let payload = try payload()
        guard payload.count <= Int(UInt16.max) else {
            throw SMPPacketError(.payloadTooLarge, "a \(payload.count)-byte payload does not fit an SMP packet")
        }
        return SMPPacket(operation: Self.operation, version: version, group: Self.group, sequence: sequence,
                         command: Self.command, payload: payload)
    }

    /// Decodes a request from a packet payload, which must be exactly one CBOR map (an empty
    /// payload reads as `{}`).
    ///
    /// Throws a `DecodingError` naming the key path; a CBOR syntax error is its underlying error.
    public static func decode(payload: some Collection<UInt8>, limits: CBORLimits = .default) throws -> Self {
        try decodeMap(Self.self, payload: payload, limits: limits)
    }

    /// Decodes this request's response from a response payload (one CBOR map; empty reads as `{}`).
    ///
    /// Check the payload for a device error first (``SMPDeviceError/from(response:version:)``): an
    /// error payload does not carry the response's fields.
    public static func decodeResponse(payload: some Collection<UInt8>, limits: CBORLimits = .default) throws -> Response {
        try decodeMap(Response.self, payload: payload, limits: limits)
    }
}

/// Decodes `type` from bytes that must hold exactly one CBOR map; no bytes at all read as `{}`.
func decodeMap<T: Decodable>(_ type: T.Type, payload: some Collection<UInt8>, limits: CBORLimits) throws -> T {
    let value: CBOR
    do {
        value = payload.isEmpty ? .map([:]) : try CBOR.decode(payload, limits: limits)
    } catch {
        throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: error.description, underlyingError: error))
    }
    guard case .map = value else {
        throw DecodingError.typeMismatch(type, .init(codingPath: [], debugDescription: "(top level): expected a map, found \(value.kindName)"))
    }
    return try CBORDecoder(limits: limits).decode(type, from: value)
}
