import AIBudsWire
import Foundation
import Testing

/// `CBORMapDecodable`: the Media list response read straight from its CBOR item gives what
/// `Decodable` gives, and refuses what it refuses.
@Suite struct CBORMapDecodableTests {
    private func entry(_ index: Int, digest: Bool) -> MediaFileEntry {
        MediaFileEntry(
            id: "id\(index)", name: "f\(index) \"é\".jpg", type: index % 4 == 0 ? -2 : 1 + index % 3, size: UInt64(index) * 1_000_003,
            sixaxis: index % 2 == 0, sha256: digest ? Data(repeating: UInt8(index % 256), count: 32) : nil)
    }

    @Test func aListResponseReadsAsDecodableReadsIt() throws {
        let response = MediaListResponse(generation: 77, total: 1_000, files: (0..<300).map { entry($0, digest: $0 % 3 != 0) })
        let item = try CBOR.decode(try CBOREncoder().encode(response))
        #expect(try MediaListResponse(cbor: item) == response)
        #expect(try CBORDecoder().decode(MediaListResponse.self, from: item) == response)
        #expect(try MediaListResponse(cbor: try CBOR.decode(try CBOREncoder().encode(MediaListResponse(generation: 0, total: 0, files: [])))).files.isEmpty)
    }

    @Test func unknownKeysAreIgnoredAndMissingOrMistypedFieldsRefused() throws {
        let good: CBOR = ["id": "a", "name": "a.jpg", "type": 1, "size": 5, "sixaxis": false, "extra": [1, 2]]
        let page: (CBOR) -> CBOR = { ["generation": 3, "total": 1, "files": .array([$0]), "later": "field"] }
        #expect(try MediaListResponse(cbor: page(good)).files.first?.name == "a.jpg")
        var missing = good
        if case .map(var map) = missing { map[.text("size")] = nil; missing = .map(map) }
        var mistyped = good
        if case .map(var map) = mistyped { map[.text("sixaxis")] = 1; mistyped = .map(map) }
        var badDigest = good
        if case .map(var map) = badDigest { map[.text("sha256")] = "not bytes"; badDigest = .map(map) }
        for item in [missing, mistyped, badDigest] {
            #expect(throws: CBORError.self) { try MediaListResponse(cbor: page(item)) }
            #expect(throws: (any Error).self) { try CBORDecoder().decode(MediaListResponse.self, from: page(item)) }
        }
        #expect(throws: CBORError.self) { try MediaListResponse(cbor: ["generation": 3, "files": []]) }
        #expect(throws: CBORError.self) { try MediaListResponse(cbor: ["generation": -1, "total": 0, "files": []]) }
    }
}
