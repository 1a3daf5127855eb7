import Foundation

/// One CBOR data item (RFC 8949), as the SMP payloads of this project carry them.
///
/// The generic data model of RFC 8949 §2: integers are split into `unsigned` (major type 0) and
/// `negative` (major type 1, the value `-1 - n`), so the whole range −2⁶⁴…2⁶⁴−1 is representable.
/// Encoding is deterministic (see ``encoded()``); decoding is strict and bounded (see
/// ``decode(_:limits:)``).
///
/// Equality is structural over this enum: `.unsigned(1)` and `.float(1.0)` differ, as they do in CBOR.
/// `.float` compares as `Double` does (`0.0 == -0.0`), except that every NaN equals every NaN: the
/// data model has one NaN, which ``encoded()`` writes as `0xf97e00`. Map keys are therefore
/// duplicates when they are equal this way (also text that Swift's `String` finds canonically
/// equivalent, and `0.0` / `-0.0`), and decoding rejects such maps.
public indirect enum CBOR: Hashable, Sendable {
    /// An unsigned integer (major type 0).
    case unsigned(UInt64)
    /// A negative integer (major type 1): the value `-1 - n`.
    case negative(UInt64)
    /// A byte string (major type 2).
    case bytes(Data)
    /// A text string (major type 3), always valid UTF-8.
    case text(String)
    /// An array (major type 4).
    case array([CBOR])
    /// A map (major type 5); decoding rejects duplicate keys (see the type's notes on equality).
    case map([CBOR: CBOR])
    /// A tagged item (major type 6): tag number and content. Tag semantics are not interpreted.
    case tagged(UInt64, CBOR)
    /// A simple value (major type 7) other than false, true, null and undefined.
    ///
    /// Valid values are 0–19 and 32–255. Encoding `.simple(20...23)` gives the bytes of false, true,
    /// null and undefined (which decode as `.bool`, `.null` and `.undefined`); 24–31 are not
    /// well-formed CBOR and encode as bytes the decoder rejects.
    case simple(UInt8)
    /// `false` or `true` (simple values 20 and 21).
    case bool(Bool)
    /// `null` (simple value 22).
    case null
    /// `undefined` (simple value 23).
    case undefined
    /// A floating-point number (half, single or double precision on the wire).
    case float(Double)
}

extension CBOR {
    /// Structural equality, with every NaN equal to every NaN.
    public static func == (lhs: CBOR, rhs: CBOR) -> Bool {
        switch (lhs, rhs) {
        case let (.unsigned(a), .unsigned(b)): return a == b
        case let (.negative(a), .negative(b)): return a == b
        case let (.bytes(a), .bytes(b)): return a == b
        case let (.text(a), .text(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.map(a), .map(b)): return a == b
        case let (.tagged(tagA, a), .tagged(tagB, b)): return tagA == tagB && a == b
        case let (.simple(a), .simple(b)): return a == b
        case let (.bool(a), .bool(b)): return a == b
        case (.null, .null), (.undefined, .undefined): return true
        case let (.float(a), .float(b)): return a == b || (a.isNaN && b.isNaN)
        default: return false
        }
    }

    /// Hashes consistently with ``==(_:_:)``.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .unsigned(let value): hasher.combine(0); hasher.combine(value)
        case .negative(let value): hasher.combine(1); hasher.combine(value)
        case .bytes(let value): hasher.combine(2); hasher.combine(value)
        case .text(let value): hasher.combine(3); hasher.combine(value)
        case .array(let value): hasher.combine(4); hasher.combine(value)
        case .map(let value): hasher.combine(5); hasher.combine(value)
        case .tagged(let tag, let value): hasher.combine(6); hasher.combine(tag); hasher.combine(value)
        case .simple(let value): hasher.combine(7); hasher.combine(value)
        case .bool(let value): hasher.combine(8); hasher.combine(value)
        case .null: hasher.combine(9)
        case .undefined: hasher.combine(10)
        case .float(let value): hasher.combine(11); hasher.combine(value.isNaN ? .nan : value)
        }
    }

    /// An integer item for `value`: `.unsigned` when it is ≥ 0, else `.negative`.
    public init<I: BinaryInteger>(integer value: I) {
        if value >= 0 {
            self = .unsigned(UInt64(value))
        } else {
            // -1 - value is ~value in two's complement, with no overflow at Int64.min.
            self = .negative(UInt64(~value))
        }
    }

    /// The value at text key `key` when this is a map, else nil.
    public subscript(key: String) -> CBOR? {
        guard case .map(let map) = self else { return nil }
        return map[.text(key)]
    }

    /// The value at `key` when this is a map, else nil.
    public subscript(key: CBOR) -> CBOR? {
        guard case .map(let map) = self else { return nil }
        return map[key]
    }

    /// The value as `UInt64` when this is a non-negative integer.
    public var uint64: UInt64? {
        if case .unsigned(let value) = self { return value }
        return nil
    }

    /// The value as `Int64` when this is an integer that fits.
    public var int64: Int64? {
        switch self {
        case .unsigned(let value): return Int64(exactly: value)
        case .negative(let value): return value <= UInt64(Int64.max) ? -1 - Int64(value) : nil
        default: return nil
        }
    }

    /// The value as `Int` when this is an integer that fits.
    public var int: Int? { int64.flatMap { Int(exactly: $0) } }

    /// The text when this is a text string.
    public var string: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    /// The bytes when this is a byte string.
    public var data: Data? {
        if case .bytes(let value) = self { return value }
        return nil
    }

    /// The value when this is a boolean.
    public var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    /// The number as `Double` when this is a float, or an integer that converts exactly.
    public var double: Double? {
        switch self {
        case .float(let value): return value
        case .unsigned(let value): return Double(exactly: value)
        case .negative: return int64.flatMap { Double(exactly: $0) }
        default: return nil
        }
    }

    /// The elements when this is an array.
    public var array: [CBOR]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The entries when this is a map.
    public var map: [CBOR: CBOR]? {
        if case .map(let value) = self { return value }
        return nil
    }

    /// Whether this is `null`.
    public var isNull: Bool { self == .null }

    /// A short name of this item's kind, for error messages ("unsigned", "text", "map", ...).
    public var kindName: String {
        switch self {
        case .unsigned: return "unsigned integer"
        case .negative: return "negative integer"
        case .bytes: return "byte string"
        case .text: return "text string"
        case .array: return "array"
        case .map: return "map"
        case .tagged: return "tagged item"
        case .simple: return "simple value"
        case .bool: return "boolean"
        case .null: return "null"
        case .undefined: return "undefined"
        case .float: return "float"
        }
    }
}

extension CBOR: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByFloatLiteral, ExpressibleByNilLiteral
{
    /// An integer literal: `.unsigned` or `.negative`.
    public init(integerLiteral value: Int64) { self.init(integer: value) }
    /// A string literal: `.text`.
    public init(stringLiteral value: String) { self = .text(value) }
    /// A boolean literal: `.bool`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// `[a, b]` in Swift builds `.array([a, b])`.
    public init(arrayLiteral elements: CBOR...) { self = .array(elements) }
    /// `1.5` in Swift builds `.float(1.5)`.
    public init(floatLiteral value: Double) { self = .float(value) }
    /// `nil`: `.null`.
    public init(nilLiteral: ()) { self = .null }
    /// A dictionary literal: `.map`; a repeated key keeps the last value.
    public init(dictionaryLiteral elements: (CBOR, CBOR)...) {
        self = .map(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
