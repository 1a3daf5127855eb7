import CCrypto
import Foundation

/// Incremental SHA-256 (FIPS 180-4), backed by OpenSSL's libcrypto.
///
/// Feed bytes with `update`, then call `finalize` once. Not thread-safe; use one per stream. At a
/// 64-byte boundary its state can be saved (``midstate``) and a later hasher continues from it
/// (``init(resuming:)``): a download resumed in another process goes on hashing where it stopped.
public final class SHA256 {
    /// OpenSSL's SHA-256 context: the low-level one, whose state can be saved and restored (the
    /// EVP context hides it); both run the same block function.
    private let context: UnsafeMutablePointer<SHA256_CTX>

    /// The state of a digest after a whole number of 64-byte blocks: the eight chaining words
    /// and the bytes hashed so far.
    public struct Midstate: Sendable, Hashable, Codable {
        /// The chaining words `H0`…`H7`.
        public var words: [UInt32]
        /// Bytes hashed so far, a multiple of 64.
        public var byteCount: UInt64

        /// A state of `words` after `byteCount` bytes; nil unless there are 8 words and
        /// `byteCount` is a multiple of 64.
        public init?(words: [UInt32], byteCount: UInt64) {
            guard words.count == 8, byteCount % 64 == 0, byteCount < UInt64.max / 8 else { return nil }
            self.words = words
            self.byteCount = byteCount
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let words = try container.decode([UInt32].self, forKey: .words)
            let count = try container.decode(UInt64.self, forKey: .byteCount)
            guard let state = Midstate(words: words, byteCount: count) else {
                throw DecodingError.dataCorruptedError(forKey: .words, in: container, debugDescription: "not a SHA-256 state at a block boundary")
            }
            self = state
        }
    }

    /// Starts a new digest.
    public init() {
        context = .allocate(capacity: 1)
        SHA256_Init(context)
    }

    /// Continues the digest whose state was `state`.
    public init(resuming state: Midstate) {
        context = .allocate(capacity: 1)
        SHA256_Init(context)
        withUnsafeMutableBytes(of: &context.pointee.h) { raw in
            for (index, word) in state.words.enumerated() { raw.storeBytes(of: word, toByteOffset: index * 4, as: UInt32.self) }
        }
        let bits = state.byteCount &* 8
        context.pointee.Nl = UInt32(truncatingIfNeeded: bits)
        context.pointee.Nh = UInt32(truncatingIfNeeded: bits >> 32)
    }

    deinit { context.deallocate() }

    /// The state to continue from, when the bytes so far are whole 64-byte blocks; nil otherwise.
    public var midstate: Midstate? {
        guard context.pointee.num == 0 else { return nil }
        let words = withUnsafeBytes(of: context.pointee.h) { raw in (0..<8).map { raw.load(fromByteOffset: $0 * 4, as: UInt32.self) } }
        let bits = UInt64(context.pointee.Nh) << 32 | UInt64(context.pointee.Nl)
        return Midstate(words: words, byteCount: bits / 8)
    }

    /// Adds bytes to the digest.
    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        SHA256_Update(context, base, bytes.count)
    }

    /// Adds bytes to the digest.
    public func update(_ data: some DataProtocol) {
        for region in data.regions { region.withUnsafeBytes { update($0) } }
    }

    /// Returns the 32-byte digest. The hasher must not be used afterwards.
    public func finalize() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        SHA256_Final(&out, context)
        return out
    }

    /// The SHA-256 digest of `data`.
    public static func hash(_ data: some DataProtocol) -> [UInt8] {
        let hasher = SHA256()
        hasher.update(data)
        return hasher.finalize()
    }

    /// The SHA-256 digest of a whole file, read in 1 MiB blocks.
    public static func hash(fileAt url: URL) throws -> [UInt8] {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        let hasher = SHA256()
        while let block = try handle.read(upToCount: 1 << 20), !block.isEmpty { hasher.update(block) }
        return hasher.finalize()
    }
}

extension Array where Element == UInt8 {
    /// The bytes of hexadecimal text, the inverse of `hexString` (`"a16162"`, or with whitespace
    /// between the digits: `"a1 61 62"`); nil for an odd number of digits or a character that is
    /// not a hexadecimal digit.
    public init?(hexadecimal text: some StringProtocol) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count / 2)
        var high: UInt8?
        for character in text.utf8 where !(character == 0x20 || character == 0x0A || character == 0x09 || character == 0x0D) {
            let value: UInt8
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = character - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = character - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = character - UInt8(ascii: "A") + 10
            default: return nil
            }
            if let first = high {
                bytes.append(first << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        guard high == nil else { return nil }
        self = bytes
    }
}

extension Sequence where Element == UInt8 {
    /// Lower-case hexadecimal text of these bytes.
    @inlinable  // specialized where it is used: unspecialized, a digest's 64 digits took ~16k instructions
    public var hexString: String {
        var text: [UInt8] = []
        text.reserveCapacity(underestimatedCount * 2)
        for byte in self {
            text.append(hexDigit(byte >> 4))
            text.append(hexDigit(byte & 0x0F))
        }
        return String(decoding: text, as: UTF8.self)
    }
}

/// The lower-case hexadecimal digit of a value 0–15.
@usableFromInline @inline(__always)
func hexDigit(_ value: UInt8) -> UInt8 {
    value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
}
