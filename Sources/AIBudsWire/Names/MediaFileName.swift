/// A device file name, compared by its exact Unicode scalars: the one key for device file names
/// on both ends (the emulator's store, the SDK's import, the download engine, TopStepComKit, the
/// command line).
///
/// Swift's `String` equality treats canonically equivalent strings as equal (`"é"` and `"e\u{301}"`),
/// but a device holds them as two files (docs/protocol.md). This type compares, hashes and orders by
/// the UTF-8 bytes, which is Unicode scalar order. A name is only ever a key: it is never turned
/// into a path. Never key a dictionary or set of device file names by `String`.
public struct MediaFileName: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The name as a Swift string, for display and logs (``utf8`` is what identifies it).
    public let text: String
    /// The name's UTF-8 bytes, the identity of the name.
    public let utf8: [UInt8]

    /// Wraps a name.
    public init(_ text: String) {
        self.text = text
        self.utf8 = Array(text.utf8)
    }

    /// Equal when the UTF-8 bytes are equal.
    public static func == (lhs: MediaFileName, rhs: MediaFileName) -> Bool { lhs.utf8 == rhs.utf8 }

    /// Hashes the UTF-8 bytes (as one block: much faster than byte by byte).
    public func hash(into hasher: inout Hasher) { utf8.withUnsafeBytes { hasher.combine(bytes: $0) } }

    /// Whether two names are the same device file: equal Unicode scalars, not merely canonically
    /// equivalent strings.
    public static func same(_ lhs: String, _ rhs: String) -> Bool { lhs.utf8.elementsEqual(rhs.utf8) }

    /// Unicode scalar (UTF-8 byte) order.
    public static func < (lhs: MediaFileName, rhs: MediaFileName) -> Bool {
        lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }

    /// The name with control characters escaped and long names shortened, safe for a log line.
    public var description: String {
        var out = ""
        for scalar in text.unicodeScalars.prefix(120) {
            if scalar.value < 0x20 || scalar.value == 0x7F {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return text.unicodeScalars.count > 120 ? out + "…(\(utf8.count) bytes)" : out
    }

    /// The extension after the last dot of the last path component, lower-cased ("" when none).
    public var pathExtension: String {
        let last = text.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        guard let dot = last.lastIndex(of: "."), dot != last.startIndex else { return "" }
        return last[last.index(after: dot)...].lowercased()
    }
}
