import AIBudsCBOR
import AIBudsWire
import Foundation
import Testing

/// `MediaListResponse.plainPage(from:)`, the fast path for Media list pages: it reads what the
/// generic decoder reads, and hands everything else (errors, unknown keys, odd encodings) back to
/// the generic path rather than judge it differently.
@Suite struct MediaListPlainPageTests {
    private func entry(_ index: Int, digest: Bool?) -> MediaFileEntry {
        MediaFileEntry(
            id: "id\(index)", name: "f\(index) \"é\" \u{1F600}.jpg", type: 1 + index % 3, size: UInt64(index) * 1_000_003,
            sixaxis: index % 2 == 0, sha256: digest == true ? Data(repeating: UInt8(index % 256), count: 32) : nil)
    }

    private func generic(_ payload: Data) throws -> MediaListResponse {
        try CBORDecoder().decode(MediaListResponse.self, from: CBOR.decode(payload))
    }

    @Test func aPlainPageReadsAsTheGenericDecoderReadsIt() throws {
        let response = MediaListResponse(generation: 77, total: 100_000, files: (0..<300).map { entry($0, digest: $0 % 3 != 0) })
        let payload = try CBOREncoder().encode(response)
        let page = try #require(MediaListResponse.plainPage(from: payload))
        #expect(page == response)
        #expect(try generic(payload) == page)
        // sha256 as null, and large numbers in every head size.
        let nulls: CBOR = [
            "generation": .unsigned(1 << 40), "total": .unsigned(UInt64.max),
            "files": [["id": "a", "name": "a", "type": 3, "size": .unsigned(1 << 33), "sixaxis": true, "sha256": .null]],
        ]
        let read = try #require(MediaListResponse.plainPage(from: Data(nulls.encoded())))
        #expect(read == (try CBORDecoder().decode(MediaListResponse.self, from: nulls)))
        #expect(read.files.first?.sha256 == nil)
        #expect(MediaListResponse.plainPage(from: try CBOREncoder().encode(MediaListResponse(generation: 0, total: 0, files: [])))?.files == [])
    }

    @Test func aPageTooLargeForTheGenericLimitsGoesToTheGenericPath() throws {
        // 9,200 entries are more than the 100,000 items the generic decoder takes.
        let files = (0..<9_200).map { _ in MediaFileEntry(id: "", name: "", type: 1, size: 0, sixaxis: false) }
        let payload = try CBOREncoder().encode(MediaListResponse(generation: 1, total: 9_200, files: files))
        #expect(MediaListResponse.plainPage(from: payload) == nil)
        #expect(throws: CBORError.self) { try CBOR.decode(payload) }
    }

    @Test func anythingButAPlainPageGoesToTheGenericPath() throws {
        let file: CBOR = ["id": "a", "name": "a.jpg", "type": 1, "size": 5, "sixaxis": false]
        func page(_ files: [CBOR], extra: [CBOR: CBOR] = [:]) -> CBOR {
            var map: [CBOR: CBOR] = ["generation": 3, "total": 1, "files": .array(files)]
            map.merge(extra) { $1 }
            return .map(map)
        }
        func with(_ key: CBOR, _ value: CBOR?) -> CBOR {
            guard case .map(var map) = file else { return file }
            map[key] = value
            return .map(map)
        }
        let refused: [(String, Data)] = [
            ("an rc", Data(page([file], extra: ["rc": 5]).encoded())),
            ("an err", Data(page([file], extra: ["err": ["group": 65, "rc": 2]]).encoded())),
            ("an unknown page key", Data(page([file], extra: ["later": "field"]).encoded())),
            ("an unknown entry key", Data(page([with("extra", [1, 2])]).encoded())),
            ("a missing size", Data(page([with("size", nil)]).encoded())),
            ("a mistyped sixaxis", Data(page([with("sixaxis", 1)]).encoded())),
            ("a negative type", Data(page([with("type", -2)]).encoded())),
            ("a text sha256", Data(page([with("sha256", "not bytes")]).encoded())),
            ("a missing total", Data(CBOR.map(["generation": 3, "files": []]).encoded())),
            ("trailing bytes", Data(page([file]).encoded()) + Data([0x00])),
            ("a truncated page", Data(page([file]).encoded()).dropLast()),
            ("not a map", Data(CBOR.array([1, 2]).encoded())),
            // {"generation": 3, "generation": 4, ...}: a duplicate key, which the generic decoder refuses.
            ("a duplicate key", Data([0xA3, 0x6A] + Array("generation".utf8) + [0x03, 0x6A] + Array("generation".utf8) + [0x04, 0x65] + Array("files".utf8) + [0x80])),
            // The same page with an indefinite-length files array.
            ("an indefinite array", Data([0xA3, 0x6A] + Array("generation".utf8) + [0x03, 0x65] + Array("total".utf8) + [0x00, 0x65] + Array("files".utf8) + [0x9F, 0xFF])),
        ]
        for (what, payload) in refused {
            #expect(MediaListResponse.plainPage(from: payload) == nil, "\(what)")
        }
        // What the generic path makes of a few of them: unknown keys ignored, the rest refused.
        #expect(try generic(refused[2].1).files.count == 1)
        #expect(try generic(refused[3].1).files.count == 1)
        #expect(try generic(refused[6].1).files.first?.type == -2)
        #expect(try generic(refused[13].1).files.isEmpty)
        for index in [4, 5, 7, 8, 9, 10, 12] {
            #expect(throws: (any Error).self, "\(refused[index].0)") { try generic(refused[index].1) }
        }
    }

    @Test func corruptedPagesAreReadAsTheGenericDecoderReadsThemOrNotAtAll() throws {
        let response = MediaListResponse(generation: 9, total: 20, files: (0..<20).map { entry($0, digest: $0 % 2 == 0) })
        let payload = Array(try CBOREncoder().encode(response))
        var random = SystemRandomNumberGenerator()
        var read = 0
        for _ in 0..<3_000 {
            var bytes = payload
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            guard let page = MediaListResponse.plainPage(from: Data(bytes)) else { continue }
            read += 1
            #expect(page == (try? generic(Data(bytes))))
        }
        #expect(read > 0)
    }
}
