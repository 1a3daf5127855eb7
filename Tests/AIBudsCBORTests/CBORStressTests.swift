import AIBudsCBOR
import AIBudsEmulator
import AIBudsWire
import Foundation
import Testing

/// A deterministic random-input check of the decoders, so `swift test` covers hostile input even
/// where libFuzzer (scripts/fuzz.sh) does not run.
@Suite struct CBORStressTests {
    static let seeds: [[UInt8]] = [
        hex("a2636f666600646e616d65682f6d656469612f61"),
        ([
            "seq": 12, "events": [["seq": 11, "kind": "battery", "value": ["level": 50, "charging": true]]],
        ] as CBOR).encoded(),
        hex("bf6346756ef563416d7421ff"), hex("9f018202039f0405ffff"), hex("5f42010243030405ff"),
        hex("fb3ff199999999999a"), hex("c249010000000000000000"), hex("a56161614161626142616361436164614461656145"),
    ]

    @Test func mutatedInputNeverCrashesAndAcceptedInputReencodesStably() {
        var random = SeededRandom(seed: 0xA1B0_D5)
        var accepted = 0
        for round in 0..<20_000 {
            var bytes = Self.seeds[round % Self.seeds.count]
            for _ in 0...Int.random(in: 0...4, using: &random) {
                let position = Int.random(in: 0...bytes.count, using: &random)
                switch Int.random(in: 0..<4, using: &random) {
                case 0 where position < bytes.count: bytes[position] = .random(in: 0...255, using: &random)
                case 1: bytes.insert(.random(in: 0...255, using: &random), at: position)
                case 2 where position < bytes.count: bytes.remove(at: position)
                default: bytes.insert(contentsOf: bytes.prefix(Int.random(in: 0...8, using: &random)), at: position)
                }
            }
            guard let value = try? CBOR.decode(bytes) else { continue }
            accepted += 1
            let encoded = value.encoded()
            #expect((try? CBOR.decode(encoded))?.encoded() == encoded, "\(bytes.hexString)")
            _ = try? FileDownloadRequest.decode(payload: bytes)
            _ = try? DeviceEventsRequest.decodeResponse(payload: bytes)
        }
        #expect(accepted > 1_000)
    }
}
