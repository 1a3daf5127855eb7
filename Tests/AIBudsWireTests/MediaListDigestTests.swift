import AIBudsCBOR
import AIBudsWire
import Foundation
import Testing

/// The optional `sha256` of a Media list entry (docs/protocol.md §3, Media group).
@Suite struct MediaListDigestTests {
    @Test func entryWithDigestRoundTripsAsByteString() throws {
        let digest = Data((0..<32).map { UInt8($0) })
        let entry = MediaFileEntry(id: "a1", name: "IMG_1.jpg", type: 1, size: 10, sixaxis: false, sha256: digest)
        let cbor = try CBOR.decode(try CBOREncoder().encode(entry))
        #expect(cbor == ["id": "a1", "name": "IMG_1.jpg", "type": 1, "size": 10, "sixaxis": false, "sha256": .bytes(digest)])
        let response = MediaListResponse(generation: 3, total: 1, files: [entry])
        #expect(try MediaListRequest.decodeResponse(payload: try CBOREncoder().encode(response)) == response)
    }

    @Test func entryWithoutDigestOmitsTheKeyAndOldEntriesDecode() throws {
        let entry = MediaFileEntry(id: "a1", name: "IMG_1.jpg", type: 1, size: 10, sixaxis: false)
        let cbor = try CBOR.decode(try CBOREncoder().encode(entry))
        #expect(cbor == ["id": "a1", "name": "IMG_1.jpg", "type": 1, "size": 10, "sixaxis": false])
        // A device that predates the field sends entries without it.
        let decoded = try CBORDecoder().decode(
            MediaFileEntry.self, from: ["id": "b", "name": "x.mp4", "type": 3, "size": 5, "sixaxis": true] as CBOR)
        #expect(decoded.sha256 == nil)
    }

    @Test func digestOfTheWrongTypeIsRejected() {
        #expect(throws: DecodingError.self) {
            try CBORDecoder().decode(
                MediaFileEntry.self, from: ["id": "b", "name": "x", "type": 3, "size": 5, "sixaxis": true, "sha256": "text"] as CBOR)
        }
    }
}
