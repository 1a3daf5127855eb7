/// Percent-encoding (RFC 3986 §2.1) of path segments: every byte of the UTF-8 text that is not
/// an unreserved character (`A–Z a–z 0–9 - . _ ~`) becomes `%XX`, `/` included.
public enum HTTPPercentEncoding {
    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// Encodes text so it fits in one path segment.
    public static func encode(_ text: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Decodes `%XX` escapes (either case); throws `HTTPError.invalidPercentEncoding` for a bad
    /// escape or bytes that are not UTF-8.
    public static func decode(_ text: Substring) throws -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                throw HTTPError(.invalidPercentEncoding, "malformed %-escape in \"\(text.prefix(100))\"")
            }
            bytes.append(high << 4 | low)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw HTTPError(.invalidPercentEncoding, "decoded bytes of \"\(text.prefix(100))\" are not UTF-8")
        }
        return decoded
    }

    /// Whether a byte is an RFC 3986 unreserved character.
    public static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}
