// libFuzzer target `smp`: what a server or client does with a datagram.
//
// SMPPacket.decode (header and length; the rest of the datagram is still used as the payload when
// the length is wrong), the payload as one CBOR map, then the payload decoded as
// every request type of SMPMessageCatalog and every response type. Every message that decodes
// must re-encode to a payload that decodes again, with a deterministic encoding.
@testable import AIBudsCBOR
@testable import AIBudsWire
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSMP(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: start, count: count)
    let packet: SMPPacket
    if let decoded = try? SMPPacket.decode(input) {
        // Re-encoding gives the same bytes, except the reserved bits of byte 0, which decoding ignores.
        var expected = Data(input)
        expected[0] &= 0x1F
        precondition(decoded.encoded() == expected, "packet re-encoding differs")
        packet = decoded
    } else if var header = try? SMPHeader.decode(input), input.count - SMPHeader.size <= Int(UInt16.max) {
        // A mutated length field should not hide the payload from the message decoders.
        header.length = UInt16(input.count - SMPHeader.size)
        packet = SMPPacket(header: header, payload: Data(input.dropFirst(SMPHeader.size)))
    } else {
        return 0
    }
    guard let map = try? packet.payloadMap() else { return 0 }
    _ = SMPDeviceError.from(response: map, version: packet.header.version)
    for type in SMPMessageCatalog.all { checkMessage(type, map) }
    return 0
}

/// Decodes `map` as a request of `type` and as its response, checking each that decodes.
private func checkMessage<R: SMPRequest>(_ type: R.Type, _ map: CBOR) {
    if let request = try? CBORDecoder().decode(R.self, from: map) { checkRoundTrip(request) }
    if let response = try? CBORDecoder().decode(R.Response.self, from: map) { checkRoundTrip(response) }
}

private func checkRoundTrip<T: Codable>(_ message: T) {
    do {
        let payload = try CBOREncoder().encode(message)
        let decoded = try CBORDecoder().decode(T.self, from: payload)
        let again = try CBOREncoder().encode(decoded)
        precondition(again == payload, "\(T.self) encoding is not deterministic")
    } catch {
        preconditionFailure("\(T.self) does not round-trip: \(error)")
    }
}
