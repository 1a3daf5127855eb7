import AIBudsDigest
import Foundation
import Testing

@Suite struct DigestTests {
    @Test func sha256MatchesKnownVectors() {
        #expect(SHA256.hash(Data()).hexString == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hash(Data("abc".utf8)).hexString == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func sha256IsTheSameInPieces() {
        let bytes = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let hasher = SHA256()
        hasher.update(bytes.prefix(12_345))
        hasher.update(bytes.dropFirst(12_345))
        #expect(hasher.finalize() == SHA256.hash(bytes))
    }

    /// A state saved at a block boundary, encoded and decoded, continues to the same digest; a
    /// state within a block cannot be saved, and a corrupt saved state is refused.
    @Test func sha256ContinuesFromASavedState() throws {
        let bytes = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 131 >> 3) })
        let first = SHA256()
        first.update(bytes.prefix(64 * 1000 + 10))
        #expect(first.midstate == nil)
        let second = SHA256()
        second.update(bytes.prefix(64 * 2500))
        let saved = try #require(second.midstate)
        #expect(saved.byteCount == 64 * 2500)
        let decoded = try JSONDecoder().decode(SHA256.Midstate.self, from: try JSONEncoder().encode(saved))
        let resumed = SHA256(resuming: decoded)
        resumed.update(bytes.dropFirst(64 * 2500))
        #expect(resumed.finalize() == SHA256.hash(bytes))
        #expect(SHA256(resuming: SHA256().midstate!).finalize() == SHA256.hash(Data()))
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(SHA256.Midstate.self, from: Data(#"{"words":[1,2,3],"byteCount":64}"#.utf8))
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(SHA256.Midstate.self, from: Data(#"{"words":[1,2,3,4,5,6,7,8],"byteCount":65}"#.utf8))
        }
    }

    @Test func crc32MatchesTheCheckValue() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([UInt8]()) == 0)
    }
}
