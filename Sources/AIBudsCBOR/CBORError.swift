/// Why CBOR bytes could not be decoded: a code, the byte offset where it was found, and a message.
public struct CBORError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kinds of CBOR decoding failure.
    public enum Code: String, Sendable, Equatable {
        /// The input ended inside an item.
        case truncated
        /// A declared length (string bytes, array or map items) is larger than the bytes that remain.
        case lengthExceedsInput
        /// Additional information 28, 29 or 30, which RFC 8949 reserves.
        case reservedAdditionalInfo
        /// Indefinite length on a major type that has none (integers, tags).
        case invalidIndefiniteLength
        /// A chunk of an indefinite-length string that is not a definite-length string of the same type.
        case invalidChunk
        /// A "break" (0xff) outside an indefinite-length item, or in a map's value position.
        case unexpectedBreak
        /// A two-byte simple value below 32 (not well-formed per RFC 8949 §3.3).
        case invalidSimpleValue
        /// A text string that is not valid UTF-8.
        case invalidUTF8
        /// A map with the same key twice.
        case duplicateMapKey
        /// Bytes after the one item that was expected.
        case trailingBytes
        /// Nesting deeper than `CBORLimits.maxDepth`.
        case depthLimitExceeded
        /// More items than `CBORLimits.maxItems`.
        case itemLimitExceeded
        /// A string longer than `CBORLimits.maxLength`.
        case lengthLimitExceeded
        /// The item is well-formed but not of the kind required (for example an SMP payload that is not a map).
        case unexpectedType
    }

    /// What went wrong.
    public var code: Code
    /// The byte offset in the input where the problem was found.
    public var offset: Int
    /// A human-readable explanation.
    public var message: String

    /// Creates a decoding failure of kind `code` found at byte `offset` of the input.
    public init(_ code: Code, offset: Int, _ message: String) {
        self.code = code
        self.offset = offset
        self.message = message
    }

    /// "CBOR <code> at byte <offset>: <message>".
    public var description: String { "CBOR \(code.rawValue) at byte \(offset): \(message)" }
}

/// Bounds that a CBOR decoder enforces, so hostile input cannot exhaust memory, stack or time.
public struct CBORLimits: Sendable, Equatable {
    /// The deepest nesting of arrays, maps and tags (the top-level item is depth 0). Capped at 512.
    public var maxDepth: Int
    /// The most data items in one input, counting every key, value, element, tag and string chunk.
    public var maxItems: Int
    /// The longest byte or text string, in bytes (for indefinite strings, the sum of the chunks).
    public var maxLength: Int

    /// Creates decoding limits: `maxDepth` nested arrays and maps, `maxItems` items in all,
    /// `maxLength` bytes in one string.
    public init(maxDepth: Int = 32, maxItems: Int = 100_000, maxLength: Int = 16 << 20) {
        self.maxDepth = maxDepth
        self.maxItems = maxItems
        self.maxLength = maxLength
    }

    /// Depth 32, 100,000 items, 16 MiB strings.
    public static let `default` = CBORLimits()
}
