import AIBudsCBOR
import Foundation
import Testing

/// Deterministic encoding and the strict, bounded decoder.
@Suite struct CBORCodecTests {
    private func error(_ text: String, limits: CBORLimits = .default) -> CBORError? {
        do {
            _ = try CBOR.decode(hex(text), limits: limits)
            return nil
        } catch {
            return error
        }
    }

    @Test func integersAndLengthsUseTheShortestForm() {
        #expect(CBOR.unsigned(255).encoded().hexString == "18ff")
        #expect(CBOR.unsigned(256).encoded().hexString == "190100")
        #expect(CBOR.unsigned(65_535).encoded().hexString == "19ffff")
        #expect(CBOR.unsigned(65_536).encoded().hexString == "1a00010000")
        #expect(CBOR.unsigned(0xFFFF_FFFF).encoded().hexString == "1affffffff")
        #expect(CBOR.unsigned(0x1_0000_0000).encoded().hexString == "1b0000000100000000")
        #expect(CBOR(integer: Int64.min).encoded().hexString == "3b7fffffffffffffff")
        #expect(CBOR.bytes(Data(count: 24)).encoded().prefix(2).hexString == "5818")
    }

    @Test func floatsUseTheShortestExactPrecision() {
        #expect(CBOR.float(0.5).encoded().hexString == "f93800")
        #expect(CBOR.float(65_504).encoded().hexString == "f97bff")
        #expect(CBOR.float(65_505).encoded().hexString == "fa477fe100")          // not a half, exactly a single
        #expect(CBOR.float(0x1p-24).encoded().hexString == "f90001")             // smallest half subnormal
        #expect(CBOR.float(0x1p-25).encoded().hexString == "fa33000000")         // below it: single
        #expect(CBOR.float(0x1.004p0).encoded().hexString == "f93c01")
        #expect(CBOR.float(0x1.002p0).encoded().hexString == "fa3f801000")       // 11 fraction bits: single
        #expect(CBOR.float(Double(Float.leastNonzeroMagnitude)).encoded().hexString == "fa00000001")
        #expect(CBOR.float(0.1).encoded().hexString == "fb3fb999999999999a")
    }

    @Test func everyHalfDecodesToTheValueThatEncodesBackToIt() throws {
        for bits in UInt16.min...UInt16.max {
            let bytes = [0xF9, UInt8(bits >> 8), UInt8(bits & 0xFF)]
            let value = try CBOR.decode(bytes)
            guard case .float(let number) = value else { Issue.record("not a float"); return }
            if number.isNaN { continue }
            #expect(value.encoded() == bytes, "half \(String(bits, radix: 16))")
        }
    }

    @Test func mapKeysAreSortedByTheirEncodedBytes() {
        // 10 (0a) < 100 (1864) < -1 (20) < "z" (617a) < "aa" (626161) < [] (80) < false (f4)
        let map: CBOR = ["aa": 1, false: 2, 100: 3, "z": 4, -1: 5, []: 6, 10: 7]
        #expect(map.encoded().hexString == "a7" + "0a07" + "186403" + "2005" + "617a04" + "62616101" + "8006" + "f402")
    }

    @Test func aHugeDeclaredArrayFailsAtOnce() {
        #expect(error("9affffffff")?.code == .lengthExceedsInput)            // 2^32-1 items in 5 bytes
        #expect(error("9bffffffffffffffff")?.code == .lengthExceedsInput)
        #expect(error("bbffffffffffffffff")?.code == .lengthExceedsInput)
        #expect(error("5bffffffffffffffff")?.code == .lengthLimitExceeded)
        #expect(error("5a00001000")?.code == .lengthExceedsInput)
        #expect(error("a2010203")?.code == .lengthExceedsInput)              // 2 entries need ≥ 4 bytes
    }

    @Test func malformedInputIsRejectedWithCodeAndOffset() {
        #expect(error("") == CBORError(.truncated, offset: 0, "input ends where an item was expected"))
        #expect(error("18")?.code == .truncated)
        #expect(error("8201")?.code == .lengthExceedsInput)
        #expect(error("820101")  == nil)
        #expect(error("83010182")?.code == .lengthExceedsInput)
        #expect(error("a1")?.code == .lengthExceedsInput)
        #expect(error("9f01")?.code == .truncated)
        #expect(error("1c")?.code == .reservedAdditionalInfo)
        #expect(error("5d")?.code == .reservedAdditionalInfo)
        #expect(error("fe")?.code == .reservedAdditionalInfo)
        #expect(error("ff")?.code == .unexpectedBreak)
        #expect(error("82ff01")?.code == .unexpectedBreak)
        #expect(error("bf01ff")?.code == .unexpectedBreak)                    // break in value position
        #expect(error("1f")?.code == .invalidIndefiniteLength)
        #expect(error("3f")?.code == .invalidIndefiniteLength)
        #expect(error("df01")?.code == .invalidIndefiniteLength)
        #expect(error("5f6161ff")?.code == .invalidChunk)                     // text chunk in a byte string
        #expect(error("7f7f6161ffff")?.code == .invalidChunk)                 // nested indefinite chunk
        #expect(error("5f01ff")?.code == .invalidChunk)
        #expect(error("f800")?.code == .invalidSimpleValue)
        #expect(error("f81f")?.code == .invalidSimpleValue)
        #expect(error("62c328") == CBORError(.invalidUTF8, offset: 0, "text string is not valid UTF-8"))
        #expect(error("7f61c361bcff")?.code == .invalidUTF8)                  // a character split across chunks
        #expect(error("a2616101616102")?.code == .duplicateMapKey)
        #expect(error("a2616101616102")?.offset == 4)
        #expect(error("a2f97e0001fb7ff800000000000102")?.code == .duplicateMapKey)   // NaN keys are one key
        #expect(error("a2f9000001f9800002")?.code == .duplicateMapKey)               // 0.0 and -0.0 too
        #expect(error("a2626161016161f6")?.code == nil)
        #expect(error("0000") == CBORError(.trailingBytes, offset: 1, "1 bytes after the end of the item"))
    }

    @Test func limitsAreEnforced() {
        let deep = String(repeating: "81", count: 33) + "00"
        #expect(error(deep)?.code == .depthLimitExceeded)
        #expect(error(String(repeating: "81", count: 32) + "00") == nil)
        #expect(error(String(repeating: "c1", count: 40) + "00")?.code == .depthLimitExceeded)
        #expect(error("83010203", limits: CBORLimits(maxItems: 3))?.code == .itemLimitExceeded)
        #expect(error("83010203", limits: CBORLimits(maxItems: 4)) == nil)
        #expect(error("6461626364", limits: CBORLimits(maxLength: 3))?.code == .lengthLimitExceeded)
        #expect(error("7f62616262636463ff", limits: CBORLimits(maxLength: 3))?.code == .lengthLimitExceeded)
        // Nonsensical limits reject everything they can, without trapping.
        #expect(error("6161", limits: CBORLimits(maxLength: -1))?.code == .lengthLimitExceeded)
        #expect(error("7f6161ff", limits: CBORLimits(maxLength: -1))?.code == .lengthLimitExceeded)
        #expect(error("8100", limits: CBORLimits(maxDepth: -1))?.code == .depthLimitExceeded)
        #expect(error("00", limits: CBORLimits(maxItems: -1))?.code == .itemLimitExceeded)
        // The depth cap holds whatever the limits say: no stack overflow on 100,000 nested arrays.
        let nested = [UInt8](repeating: 0x81, count: 100_000) + [0]
        #expect(throws: CBORError.self) { try CBOR.decode(nested, limits: CBORLimits(maxDepth: .max, maxItems: .max)) }
    }

    @Test func accessorsReadMapsAndNumbers() throws {
        let value = try CBOR.decode(hex("a36161016162383863616263f5"))
        #expect(value["a"]?.uint64 == 1)
        #expect(value["b"]?.int == -57)
        #expect(value["abc"]?.bool == true)
        #expect(value["missing"] == nil)
        #expect(CBOR.negative(UInt64.max).int64 == nil)
        #expect(CBOR.negative(UInt64(Int64.max)).int64 == .min)
        #expect(CBOR.unsigned(3).double == 3)
    }
}
