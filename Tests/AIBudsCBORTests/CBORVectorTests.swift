import AIBudsCBOR
import Foundation
import Testing

/// RFC 8949 Appendix A: every example, decoded and (where the encoding is the deterministic one)
/// encoded back.
@Suite struct CBORVectorTests {
    /// Examples whose encoding is the deterministic one: decode to `value`, and `value` encodes to them.
    static let roundTrip: [(String, CBOR)] = [
        ("00", 0), ("01", 1), ("0a", 10), ("17", 23), ("1818", 24), ("1819", 25), ("1864", 100),
        ("1903e8", 1000), ("1a000f4240", 1_000_000), ("1b000000e8d4a51000", 1_000_000_000_000),
        ("1bffffffffffffffff", .unsigned(UInt64.max)),
        ("c249010000000000000000", .tagged(2, .bytes(Data(hex("010000000000000000"))))),
        ("3bffffffffffffffff", .negative(UInt64.max)),
        ("c349010000000000000000", .tagged(3, .bytes(Data(hex("010000000000000000"))))),
        ("20", -1), ("29", -10), ("3863", -100), ("3903e7", -1000),
        ("f90000", 0.0), ("f93c00", 1.0), ("fb3ff199999999999a", 1.1), ("f93e00", 1.5),
        ("f97bff", 65504.0), ("fa47c35000", 100_000.0), ("fa7f7fffff", 3.4028234663852886e+38),
        ("fb7e37e43c8800759c", 1.0e+300), ("f90001", 5.960464477539063e-8), ("f90400", 0.00006103515625),
        ("f9c400", -4.0), ("fbc010666666666666", -4.1),
        ("f97c00", .float(.infinity)), ("f97e00", .float(.nan)), ("f9fc00", .float(-.infinity)),
        ("f4", false), ("f5", true), ("f6", .null), ("f7", .undefined), ("f0", .simple(16)), ("f8ff", .simple(255)),
        ("c074323031332d30332d32315432303a30343a30305a", .tagged(0, "2013-03-21T20:04:00Z")),
        ("c11a514b67b0", .tagged(1, 1_363_896_240)), ("c1fb41d452d9ec200000", .tagged(1, 1_363_896_240.5)),
        ("d74401020304", .tagged(23, .bytes(Data([1, 2, 3, 4])))),
        ("d818456449455446", .tagged(24, .bytes(Data(hex("6449455446"))))),
        ("d82076687474703a2f2f7777772e6578616d706c652e636f6d", .tagged(32, "http://www.example.com")),
        ("40", .bytes(Data())), ("4401020304", .bytes(Data([1, 2, 3, 4]))),
        ("60", ""), ("6161", "a"), ("6449455446", "IETF"), ("62225c", "\"\\"), ("62c3bc", "\u{fc}"),
        ("63e6b0b4", "\u{6c34}"), ("64f0908591", "\u{10151}"),
        ("80", []), ("83010203", [1, 2, 3]), ("8301820203820405", [1, [2, 3], [4, 5]]),
        ("98190102030405060708090a0b0c0d0e0f101112131415161718181819", .array((1...25).map { CBOR(integer: $0) })),
        ("a0", [:]), ("a201020304", [1: 2, 3: 4]), ("a26161016162820203", ["a": 1, "b": [2, 3]]),
        ("826161a161626163", ["a", ["b": "c"]]),
        ("a56161614161626142616361436164614461656145", ["a": "A", "b": "B", "c": "C", "d": "D", "e": "E"]),
    ]

    /// Examples that are valid but not deterministic (indefinite lengths, longer floats): decode only.
    static let decodeOnly: [(String, CBOR)] = [
        ("fa7f800000", .float(.infinity)), ("fa7fc00000", .float(.nan)), ("fb7ff8000000000000", .float(.nan)), ("faff800000", .float(-.infinity)),
        ("fb7ff0000000000000", .float(.infinity)), ("fbfff0000000000000", .float(-.infinity)),
        ("5f42010243030405ff", .bytes(Data([1, 2, 3, 4, 5]))), ("7f657374726561646d696e67ff", "streaming"),
        ("9fff", []), ("9f018202039f0405ffff", [1, [2, 3], [4, 5]]), ("9f01820203820405ff", [1, [2, 3], [4, 5]]),
        ("83018202039f0405ff", [1, [2, 3], [4, 5]]), ("83019f0203ff820405", [1, [2, 3], [4, 5]]),
        ("9f0102030405060708090a0b0c0d0e0f101112131415161718181819ff", .array((1...25).map { CBOR(integer: $0) })),
        ("bf61610161629f0203ffff", ["a": 1, "b": [2, 3]]), ("826161bf61626163ff", ["a", ["b": "c"]]),
        ("bf6346756ef563416d7421ff", ["Fun": true, "Amt": -2]),
    ]

    @Test func deterministicExamplesDecodeAndEncode() throws {
        for (text, value) in Self.roundTrip {
            let decoded = try CBOR.decode(hex(text))
            #expect(decoded == value, "decoding \(text)")
            #expect(value.encoded().hexString == text, "encoding \(value)")
        }
    }

    @Test func otherExamplesDecode() throws {
        for (text, value) in Self.decodeOnly {
            #expect(try CBOR.decode(hex(text)) == value, "decoding \(text)")
        }
    }

    @Test func negativeZeroKeepsItsSign() throws {
        let decoded = try CBOR.decode(hex("f98000"))
        guard case .float(let value) = decoded else { Issue.record("not a float"); return }
        #expect(value == 0 && value.sign == .minus)
        #expect(decoded.encoded().hexString == "f98000")
    }

    @Test func everyNaNDecodesAndEncodesCanonically() throws {
        for text in ["f97e00", "fa7fc00000", "fb7ff8000000000000"] {
            guard case .float(let value) = try CBOR.decode(hex(text)) else { Issue.record("not a float"); continue }
            #expect(value.isNaN, "\(text)")
        }
        #expect(CBOR.float(.nan).encoded().hexString == "f97e00")
    }
}
