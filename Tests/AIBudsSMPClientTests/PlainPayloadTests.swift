import AIBudsSMPClient
import AIBudsTestKit
import AIBudsWire
import Foundation
import Testing

/// A response that says how it was read: straight from its bytes (when they start with the map of
/// one entry `{"v": n}`) or through `Decodable`.
private struct Probe: Codable, Sendable, Equatable, PlainPayloadDecodable {
    var v: Int
    var readFromBytes = false

    enum CodingKeys: String, CodingKey { case v }

    static func decode(plainPayload payload: Data) -> Probe? {
        // A1 61 76 0n: {"v": n} with n < 24.
        guard payload.count == 4, Array(payload.prefix(3)) == [0xA1, 0x61, 0x76], payload.last! < 24 else { return nil }
        return Probe(v: Int(payload.last!), readFromBytes: true)
    }
}

private struct ProbeRequest: SMPRequest {
    typealias Response = Probe
    static let route = SMPRoute(64, 7, .read, "events")
}

/// `SMPClient` reads a `PlainPayloadDecodable` response from its payload bytes, and gives
/// everything it declines (other forms, device errors) to the generic path as before.
@Suite(.timeLimit(.minutes(1))) struct PlainPayloadTests {
    @Test func aPlainPayloadIsReadFromItsBytesAndTheRestAsBefore() async throws {
        let (client, device, _) = try makePair()
        async let plain = client.send(ProbeRequest())
        try device.reply(to: try await device.nextRequest(), ["v": 5])
        #expect(try await plain == Probe(v: 5, readFromBytes: true))

        // A form it does not take (a value of 30 needs a longer head): Decodable reads it.
        async let other = client.send(ProbeRequest())
        try device.reply(to: try await device.nextRequest(), ["v": 30])
        #expect(try await other == Probe(v: 30, readFromBytes: false))

        // A device error still is one.
        let failure = Task { await smpFailure { try await client.send(ProbeRequest()) } }
        try device.reply(to: try await device.nextRequest(), ["rc": 5])
        let error = try #require(await failure.value)
        guard case .device = error.code else { Issue.record("not a device error: \(error)"); return }
    }
}
