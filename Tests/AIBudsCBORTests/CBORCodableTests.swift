import AIBudsCBOR
import Foundation
import Testing

/// The Codable mapping of CBOREncoder and CBORDecoder.
@Suite struct CBORCodableTests {
    struct Entry: Codable, Equatable {
        var id: String
        var size: UInt64
        var sixaxis: Bool
    }

    struct Everything: Codable, Equatable {
        var text: String
        var bytes: Data
        var small: Int8
        var big: UInt64
        var negative: Int64
        var ratio: Double
        var single: Float
        var flag: Bool
        var missing: String?
        var present: Int?
        var list: [Entry]
        var matrix: [[Int]]
        var table: [String: Int]
        var raw: CBOR
    }

    static let sample = Everything(
        text: "héllo", bytes: Data([0, 1, 0xFF]), small: -128, big: .max, negative: .min, ratio: 0.1,
        single: 1.5, flag: true, missing: nil, present: 7,
        list: [Entry(id: "a", size: 1, sixaxis: false), Entry(id: "b", size: 1 << 40, sixaxis: true)],
        matrix: [[1, 2], [], [3]], table: ["x": 1, "y": -2], raw: ["kind": [1, "two"], "n": .null])

    @Test func everythingRoundTrips() throws {
        let data = try CBOREncoder().encode(Self.sample)
        #expect(try CBORDecoder().decode(Everything.self, from: data) == Self.sample)
    }

    @Test func mappingIsTheDocumentedOne() throws {
        let value = try CBOR.decode(try CBOREncoder().encode(Self.sample))
        #expect(value["text"] == .text("héllo"))
        #expect(value["bytes"] == .bytes(Data([0, 1, 0xFF])))
        #expect(value["small"] == .negative(127))
        #expect(value["big"] == .unsigned(.max))
        #expect(value["single"] == .float(1.5))
        #expect(value["missing"] == nil)                      // nil optional: key omitted
        #expect(value["present"] == 7)
        #expect(value["list"]?.array?.count == 2)
        #expect(value["table"] == ["x": 1, "y": -2])
        #expect(value["raw"] == ["kind": [1, "two"], "n": .null])
    }

    @Test func encodingIsDeterministicAndHandChecked() throws {
        struct Download: Codable { var off: UInt64; var name: String }
        let bytes = try CBOREncoder().encode(Download(off: 0, name: "/media/a"))
        #expect(bytes.hexString == "a2" + "636f666600" + "646e616d65682f6d656469612f61")
        struct Empty: Codable {}
        #expect(try CBOREncoder().encode(Empty()).hexString == "a0")
        _ = try CBORDecoder().decode(Empty.self, from: hex("a1617801"))   // unknown keys are ignored
    }

    @Test func nullDecodesAsNilOptional() throws {
        struct Maybe: Codable { var a: Int? }
        #expect(try CBORDecoder().decode(Maybe.self, from: hex("a16161f6")).a == nil)
        #expect(try CBORDecoder().decode(Maybe.self, from: hex("a0")).a == nil)
        #expect(try CBORDecoder().decode(Maybe.self, from: hex("a1616105")).a == 5)
    }

    @Test func numbersConvertOnlyWhenExact() throws {
        struct Small: Codable { var v: UInt8 }
        struct Real: Codable { var v: Double }
        #expect(try CBORDecoder().decode(Real.self, from: hex("a161760a")).v == 10)   // integer into Double
        #expect(throws: DecodingError.self) { try CBORDecoder().decode(Small.self, from: hex("a161761901ff")) }
        #expect(throws: DecodingError.self) { try CBORDecoder().decode(Small.self, from: hex("a1617620")) }
        #expect(throws: DecodingError.self) { try CBORDecoder().decode(Small.self, from: hex("a16176f93c00")) }
    }

    @Test func errorsNameTheKeyPath() throws {
        struct Listing: Codable { var files: [Entry] }
        let bad: CBOR = ["files": [["id": "a", "size": 1, "sixaxis": false], ["id": "b", "size": "big", "sixaxis": true]]]
        do {
            _ = try CBORDecoder().decode(Listing.self, from: bad)
            Issue.record("decoded a text size")
        } catch let DecodingError.typeMismatch(_, context) {
            #expect(context.debugDescription == "files[1].size: expected an integer, found text string")
            #expect(context.codingPath.map(\.stringValue) == ["files", "1", "size"])
        }
        let missing: CBOR = ["files": [["id": "a", "size": 1]]]
        do {
            _ = try CBORDecoder().decode(Listing.self, from: missing)
            Issue.record("decoded without sixaxis")
        } catch let DecodingError.keyNotFound(key, context) {
            #expect(key.stringValue == "sixaxis")
            #expect(context.debugDescription == "files[0].sixaxis: missing")
        }
    }

    @Test func syntaxErrorsCarryTheCBORError() {
        do {
            _ = try CBORDecoder().decode(Entry.self, from: hex("a2616101"))
            Issue.record("decoded truncated input")
        } catch let DecodingError.dataCorrupted(context) {
            #expect((context.underlyingError as? CBORError)?.code == .lengthExceedsInput)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func cborPropertiesWorkWithJSONToo() throws {
        struct Holder: Codable { var value: CBOR }
        let json = try JSONEncoder().encode(Holder(value: ["a": [1, -2, "x", true, .null]]))
        #expect(String(decoding: json, as: UTF8.self) == #"{"value":{"a":[1,-2,"x",true,null]}}"#)
        #expect(try JSONDecoder().decode(Holder.self, from: json).value == ["a": [1, -2, "x", true, .null]])
    }
}
