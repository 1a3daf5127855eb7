import CCrypto
import Foundation

/// Incremental SHA-256 (FIPS 180-4), backed by OpenSSL's libcrypto.
///
/// Feed bytes with `update`, then call `finalize` once. Not thread-safe; use one per stream.
public final class SHA256 {
    private let context: OpaquePointer

    /// OpenSSL's SHA-256 implementation, fetched from its provider once: initialising with
    /// `EVP_sha256()` fetches it again for every digest (about 5,000 instructions each, one digest
    /// per imported file).
    nonisolated(unsafe) private static let algorithm: OpaquePointer? = EVP_MD_fetch(nil, "SHA256", nil)

    /// Starts a new digest.
    public init() {
        guard let context = EVP_MD_CTX_new(), EVP_DigestInit_ex(context, SHA256.algorithm ?? EVP_sha256(), nil) == 1 else {
            fatalError("libcrypto cannot create a SHA-256 context (out of memory)")
        }
        self.context = context
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Adds bytes to the digest.
    public func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        EVP_DigestUpdate(context, base, bytes.count)
    }

    /// Adds bytes to the digest.
    public func update(_ data: some DataProtocol) {
        for region in data.regions { region.withUnsafeBytes { update($0) } }
    }

    /// Returns the 32-byte digest. The hasher must not be used afterwards.
    public func finalize() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &out, &length)
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
