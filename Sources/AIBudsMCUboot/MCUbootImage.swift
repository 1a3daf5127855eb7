import Foundation

/// An MCUboot image version: `major.minor.revision+build`.
public struct MCUbootVersion: Sendable, Equatable, Comparable, Codable, CustomStringConvertible {
    /// The major number (one byte).
    public var major: UInt8
    /// The minor number (one byte).
    public var minor: UInt8
    /// The revision (two bytes).
    public var revision: UInt16
    /// The build number (four bytes).
    public var build: UInt32

    /// Creates a version from its four header fields (one, one, two and four bytes wide).
    public init(major: UInt8, minor: UInt8, revision: UInt16, build: UInt32 = 0) {
        self.major = major
        self.minor = minor
        self.revision = revision
        self.build = build
    }

    /// Parses `1.2.3`, `1.2.3.4` (Zephyr's spelling) or `1.2.3+4` (imgtool's); nil otherwise.
    public init?(_ text: String) {
        let parts = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "." || $0 == "+" })
        guard (1...4).contains(parts.count) else { return nil }
        let numbers = parts.map { UInt64($0) }
        guard numbers.allSatisfy({ $0 != nil }) else { return nil }
        let values = numbers.map { $0! } + Array(repeating: 0, count: 4 - parts.count)
        guard let major = UInt8(exactly: values[0]), let minor = UInt8(exactly: values[1]),
            let revision = UInt16(exactly: values[2]), let build = UInt32(exactly: values[3])
        else { return nil }
        self.init(major: major, minor: minor, revision: revision, build: build)
    }

    /// Zephyr's img_mgmt spelling: `major.minor.revision`, then `.build` when the build is not 0.
    public var description: String {
        let base = "\(major).\(minor).\(revision)"
        return build == 0 ? base : "\(base).\(build)"
    }

    /// Orders by major, minor, revision, then build.
    public static func < (lhs: MCUbootVersion, rhs: MCUbootVersion) -> Bool {
        (lhs.major, lhs.minor, lhs.revision, lhs.build) < (rhs.major, rhs.minor, rhs.revision, rhs.build)
    }
}

/// Why a file is not a usable MCUboot image; each case maps to the `IMG_MGMT_ERR_*` code a device
/// answers for it.
public enum MCUbootImageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Shorter than the 32-byte header, or the header's sizes point past the file.
    case truncated(String)
    /// The first four bytes are not MCUboot's magic `0x96f3b83d`.
    case badMagic(UInt32)
    /// No TLV area (or a wrong TLV info magic) after the image body.
    case noTLVs
    /// A TLV runs past its area, or the area's size disagrees with the header.
    case invalidTLV(String)
    /// More than one SHA-256 TLV.
    case multipleHashes
    /// A SHA-256 TLV whose length is not 32.
    case hashSize(Int)
    /// No SHA-256 TLV.
    case hashNotFound
    /// The header, body and protected TLVs do not have the SHA-256 of the TLV.
    case hashMismatch

    /// What is wrong, in words.
    public var description: String {
        switch self {
        case .truncated(let what): return "not a complete MCUboot image: \(what)"
        case .badMagic(let magic): return String(format: "not an MCUboot image (magic 0x%08x, expected 0x96f3b83d)", magic)
        case .noTLVs: return "the MCUboot image has no TLV area"
        case .invalidTLV(let what): return "the MCUboot image's TLV area is invalid: \(what)"
        case .multipleHashes: return "the MCUboot image has more than one SHA-256 TLV"
        case .hashSize(let size): return "the MCUboot image's SHA-256 TLV has \(size) bytes, not 32"
        case .hashNotFound: return "the MCUboot image has no SHA-256 TLV"
        case .hashMismatch: return "the MCUboot image's bytes do not have the SHA-256 its TLV states (corrupt image)"
        }
    }
}

/// The header and TLV area of an MCUboot image (MCUboot's `bootutil/image.h`), all little-endian:
/// a 32-byte header (magic `0x96f3b83d`, load address, header size, protected TLV size, body
/// size, flags, version `u8.u8.u16+u32`), the body at the header size, then an optional protected
/// TLV area (info magic `0x6908`) and the TLV area (info magic `0x6907`), each an info word
/// (magic, total size including the info) followed by `type u16, length u16, value` entries. TLV
/// `0x10` is the SHA-256 of the header, body and protected TLVs: the image's hash that Image
/// `state` reports and `state write` names.
public struct MCUbootImage: Sendable, Equatable {
    /// The header magic.
    public static let magic: UInt32 = 0x96f3_b83d
    /// The magic of the TLV area's info word.
    public static let tlvInfoMagic: UInt16 = 0x6907
    /// The magic of the protected TLV area's info word.
    public static let protectedTLVInfoMagic: UInt16 = 0x6908
    /// The type of the SHA-256 TLV.
    public static let sha256TLV: UInt16 = 0x10
    /// The bytes of the header's fields (32); imgtool pads the header to `--header-size`.
    public static let headerStructureSize = 32

    /// The load address (0 for images that run in place).
    public var loadAddress: UInt32
    /// Where the body starts (imgtool's `--header-size`).
    public var headerSize: Int
    /// The size of the protected TLV area (0 when none).
    public var protectedTLVSize: Int
    /// The length of the executable body that follows the header, in bytes.
    public var bodySize: Int
    /// The header flags.
    public var flags: UInt32
    /// The version from the header, compared by `upgrade` uploads.
    public var version: MCUbootVersion
    /// The SHA-256 from the TLV area: the image's hash.
    public var hash: Data
    /// Where the bytes the hash covers end (header, body and protected TLVs).
    public var hashedLength: Int
    /// Where the TLV area ends; a file may go on with padding and a trailer.
    public var end: Int

    /// Reads the header and TLVs of `data`; does not check the hash (see ``verify(_:sha256:)``).
    public init(parsing data: Data) throws(MCUbootImageError) {
        let bytes = [UInt8](data)
        func u16(_ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
        func u32(_ at: Int) -> UInt32 { UInt32(u16(at)) | UInt32(u16(at + 2)) << 16 }
        guard bytes.count >= 4 else { throw .truncated("\(bytes.count) bytes, shorter than the header magic") }
        let magic = u32(0)
        guard magic == Self.magic else { throw .badMagic(magic) }
        guard bytes.count >= Self.headerStructureSize else { throw .truncated("\(bytes.count) bytes, shorter than the 32-byte header") }
        loadAddress = u32(4)
        headerSize = Int(u16(8))
        protectedTLVSize = Int(u16(10))
        bodySize = Int(u32(12))
        flags = u32(16)
        version = MCUbootVersion(major: bytes[20], minor: bytes[21], revision: u16(22), build: u32(24))
        guard headerSize >= Self.headerStructureSize else { throw .truncated("a header size of \(headerSize) bytes") }
        let bodyEnd = headerSize + bodySize
        guard bodyEnd <= bytes.count else { throw .truncated("the body ends at \(bodyEnd), the file at \(bytes.count)") }
        var position = bodyEnd
        if protectedTLVSize > 0 {
            guard position + 4 <= bytes.count, u16(position) == Self.protectedTLVInfoMagic else { throw .noTLVs }
            guard Int(u16(position + 2)) == protectedTLVSize, position + protectedTLVSize <= bytes.count else {
                throw .invalidTLV("the protected area's size disagrees with the header's \(protectedTLVSize)")
            }
            position += protectedTLVSize
        }
        hashedLength = position
        guard position + 4 <= bytes.count, u16(position) == Self.tlvInfoMagic else { throw .noTLVs }
        let areaEnd = position + Int(u16(position + 2))
        guard areaEnd <= bytes.count, areaEnd >= position + 4 else {
            throw .invalidTLV("the area of \(u16(position + 2)) bytes runs past the file")
        }
        end = areaEnd
        var found: Data?
        var entry = position + 4
        while entry < areaEnd {
            guard entry + 4 <= areaEnd else { throw .invalidTLV("a TLV header at \(entry) runs past the area") }
            let type = u16(entry)
            let length = Int(u16(entry + 2))
            guard entry + 4 + length <= areaEnd else { throw .invalidTLV("TLV 0x\(String(type, radix: 16)) runs past the area") }
            if type == Self.sha256TLV {
                guard found == nil else { throw .multipleHashes }
                guard length == 32 else { throw .hashSize(length) }
                found = Data(bytes[(entry + 4)..<(entry + 4 + length)])
            }
            entry += 4 + length
        }
        guard let found else { throw .hashNotFound }
        hash = found
    }

    /// Checks that the bytes the hash covers have it; `sha256` computes a SHA-256.
    public func verify(_ data: Data, sha256: (Data) -> [UInt8]) throws(MCUbootImageError) {
        guard data.count >= hashedLength else { throw .truncated("\(data.count) bytes") }
        guard Data(sha256(data.prefix(hashedLength))) == hash else { throw .hashMismatch }
    }

    /// Builds an image as imgtool does without a key: `body` after a header of `headerSize`
    /// bytes, then a TLV area with the SHA-256 (`sha256` computes one).
    public static func build(
        body: Data, version: MCUbootVersion, headerSize: Int = 32, loadAddress: UInt32 = 0,
        sha256: (Data) -> [UInt8]
    ) -> Data {
        var out = Data()
        func u16(_ value: UInt16) { out.append(UInt8(value & 0xFF)); out.append(UInt8(value >> 8)) }
        func u32(_ value: UInt32) { u16(UInt16(value & 0xFFFF)); u16(UInt16(value >> 16)) }
        let headerSize = max(headerSize, headerStructureSize)
        u32(magic)
        u32(loadAddress)
        u16(UInt16(clamping: headerSize))
        u16(0)
        u32(UInt32(clamping: body.count))
        u32(0)
        out.append(version.major)
        out.append(version.minor)
        u16(version.revision)
        u32(version.build)
        u32(0)
        out.append(Data(count: headerSize - headerStructureSize))
        out.append(body)
        let digest = sha256(out)
        u16(tlvInfoMagic)
        u16(UInt16(4 + 4 + digest.count))
        u16(sha256TLV)
        u16(UInt16(digest.count))
        out.append(contentsOf: digest)
        return out
    }
}
