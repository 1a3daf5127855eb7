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

    @Test func crc32MatchesTheCheckValue() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([UInt8]()) == 0)
    }
}
