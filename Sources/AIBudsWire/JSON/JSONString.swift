/// JSON string literals written straight into bytes, for hot paths that cannot afford
/// `JSONEncoder` (the import ledger, `aibuds media import --json`).
public enum JSONString {
    /// Appends `text` as a JSON string literal, escaped exactly as Foundation's `JSONEncoder`
    /// with `.withoutEscapingSlashes` escapes it: quotes, backslashes and control characters;
    /// `\b \f \n \r \t` by name, the others as `\u00XX`; slashes stay as they are.
    public static func append(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        defer { bytes.append(UInt8(ascii: "\"")) }
        var text = text
        text.withUTF8 { utf8 in  // the text's own bytes: a report or ledger escapes thousands of strings
            if !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
                bytes.append(contentsOf: utf8)
            } else {
                appendEscaped(utf8, to: &bytes)
            }
        }
    }

    private static func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), byte]
            case UInt8(ascii: "\n"): bytes += Array("\\n".utf8)
            case UInt8(ascii: "\r"): bytes += Array("\\r".utf8)
            case UInt8(ascii: "\t"): bytes += Array("\\t".utf8)
            case 0x08: bytes += Array("\\b".utf8)
            case 0x0C: bytes += Array("\\f".utf8)
            case 0..<0x20: bytes += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: bytes.append(byte)
            }
        }
    }
}
