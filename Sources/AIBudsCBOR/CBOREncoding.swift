import Foundation

extension CBOR {
    /// The deterministic encoding of this item (RFC 8949 §4.2.1, core deterministic encoding).
    ///
    /// Integers, lengths and tag numbers use their shortest form; every string, array and map has a
    /// definite length; map entries are sorted by the bytewise order of their encoded keys; a float
    /// takes the shortest of half, single and double precision that holds it exactly, and NaN is
    /// always `0xf97e00`.
    public func encoded() -> [UInt8] {
        var out: [UInt8] = []
        encode(into: &out)
        return out
    }

    /// Appends the deterministic encoding of this item to `out`.
    public func encode(into out: inout [UInt8]) {
        switch self {
        case .unsigned(let value):
            Self.appendHead(major: 0, argument: value, to: &out)
        case .negative(let value):
            Self.appendHead(major: 1, argument: value, to: &out)
        case .bytes(let value):
            Self.appendHead(major: 2, argument: UInt64(value.count), to: &out)
            out.append(contentsOf: value)
        case .text(let value):
            let utf8 = value.utf8
            Self.appendHead(major: 3, argument: UInt64(utf8.count), to: &out)
            out.append(contentsOf: utf8)
        case .array(let elements):
            Self.appendHead(major: 4, argument: UInt64(elements.count), to: &out)
            for element in elements { element.encode(into: &out) }
        case .map(let entries):
            Self.appendHead(major: 5, argument: UInt64(entries.count), to: &out)
            let encodedEntries = entries.map { (key: $0.key.encoded(), value: $0.value) }
                .sorted { $0.key.lexicographicallyPrecedes($1.key) }
            for entry in encodedEntries {
                out.append(contentsOf: entry.key)
                entry.value.encode(into: &out)
            }
        case .tagged(let tag, let content):
            Self.appendHead(major: 6, argument: tag, to: &out)
            content.encode(into: &out)
        case .simple(let value):
            if value < 24 { out.append(0xE0 | value) } else { out.append(contentsOf: [0xF8, value]) }
        case .bool(let value):
            out.append(value ? 0xF5 : 0xF4)
        case .null:
            out.append(0xF6)
        case .undefined:
            out.append(0xF7)
        case .float(let value):
            Self.appendFloat(value, to: &out)
        }
    }

    /// Appends an item head (major type 0–7 and its argument) in its shortest form, as
    /// ``encode(into:)`` does: for code that writes a known shape straight into bytes.
    public static func appendHead(major: UInt8, argument: UInt64, to out: inout [UInt8]) {
        let type = major << 5
        switch argument {
        case 0..<24:
            out.append(type | UInt8(argument))
        case 24...0xFF:
            out.append(contentsOf: [type | 24, UInt8(argument)])
        case 0x100...0xFFFF:
            out.append(type | 25)
            appendBigEndian(UInt16(argument), to: &out)
        case 0x1_0000...0xFFFF_FFFF:
            out.append(type | 26)
            appendBigEndian(UInt32(argument), to: &out)
        default:
            out.append(type | 27)
            appendBigEndian(argument, to: &out)
        }
    }

    /// Appends a float in the shortest exact precision (NaN as the canonical half `0x7e00`).
    static func appendFloat(_ value: Double, to out: inout [UInt8]) {
        if value.isNaN {
            out.append(contentsOf: [0xF9, 0x7E, 0x00])
        } else if let half = CBORFloat.half(exactly: value) {
            out.append(0xF9)
            appendBigEndian(half, to: &out)
        } else if let single = CBORFloat.single(exactly: value) {
            out.append(0xFA)
            appendBigEndian(single.bitPattern, to: &out)
        } else {
            out.append(0xFB)
            appendBigEndian(value.bitPattern, to: &out)
        }
    }

    private static func appendBigEndian<T: FixedWidthInteger>(_ value: T, to out: inout [UInt8]) {
        var shift = T.bitWidth - 8
        while shift >= 0 {
            out.append(UInt8(truncatingIfNeeded: value >> shift))
            shift -= 8
        }
    }
}
