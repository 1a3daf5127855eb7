import Foundation

/// Decodes `Decodable` values from CBOR, the inverse of ``CBOREncoder``.
///
/// Bytes are first parsed strictly within ``limits`` (see ``CBOR/decode(_:limits:)``). Failures are
/// `DecodingError`s whose debug description names the key path (for example
/// `files[2].size: expected an unsigned integer, found text string`); a CBOR syntax error is a
/// `DecodingError.dataCorrupted` whose `underlyingError` is the ``CBORError``.
///
/// Integers decode into any integer type they fit (else `dataCorrupted`); `Double` and `Float`
/// also accept integers that convert exactly; `null` and `undefined` decode as nil optionals;
/// keys that the type does not know are ignored.
public struct CBORDecoder: Sendable {
    /// The bounds applied when parsing bytes.
    public var limits: CBORLimits

    /// Creates a decoder that fails on input beyond `limits` (depth, item count, string length).
    public init(limits: CBORLimits = .default) {
        self.limits = limits
    }

    /// Decodes a `T` from CBOR bytes holding exactly one item.
    public func decode<T: Decodable>(_ type: T.Type, from data: some Collection<UInt8>) throws -> T {
        let value: CBOR
        do {
            value = try CBOR.decode(data, limits: limits)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: error.description, underlyingError: error))
        }
        return try decode(type, from: value)
    }

    /// Decodes a `T` from an already parsed CBOR item.
    public func decode<T: Decodable>(_ type: T.Type, from value: CBOR) throws -> T {
        try CBORDecoderImpl(value: value, codingPath: []).decodeValue(type)
    }
}

/// The `Decoder` handed to `init(from:)`.
struct CBORDecoderImpl: Decoder {
    let value: CBOR
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .map(let map) = value else { throw mismatch([String: CBOR].self, expected: "a map") }
        return KeyedDecodingContainer(CBORKeyedDecodingContainer<Key>(map: map, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw mismatch([CBOR].self, expected: "an array") }
        return CBORUnkeyedDecodingContainer(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    /// A type mismatch at this path, naming what was expected and what was found.
    func mismatch(_ type: Any.Type, expected: String) -> DecodingError {
        .typeMismatch(type, .init(codingPath: codingPath,
                                  debugDescription: "\(codingPath.pathDescription): expected \(expected), found \(value.kindName)"))
    }

    /// A `T` from this value, handling the types with a direct CBOR form.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if type == CBOR.self { return value as! T }
        if type == Data.self {
            guard case .bytes(let data) = value else { throw mismatch(Data.self, expected: "a byte string") }
            return data as! T
        }
        return try T(from: self)
    }

    func decodeInteger<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        let converted: T?
        switch value {
        case .unsigned(let number): converted = T(exactly: number)
        case .negative(let number):
            // -1 - number; representable only in signed types.
            converted = number < UInt64(Int64.max) + 1 ? T(exactly: -1 - Int64(number)) : nil
        default: throw mismatch(type, expected: "an integer")
        }
        guard let converted else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath,
                                                    debugDescription: "\(codingPath.pathDescription): \(value) does not fit \(T.self)"))
        }
        return converted
    }

    func decodeDouble() throws -> Double {
        switch value {
        case .float(let number): return number
        case .unsigned, .negative:
            if let number = value.double { return number }
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath,
                                                    debugDescription: "\(codingPath.pathDescription): \(value) is not exactly a Double"))
        default: throw mismatch(Double.self, expected: "a number")
        }
    }
}

extension CBORDecoderImpl: SingleValueDecodingContainer {
    func decodeNil() -> Bool { value == .null || value == .undefined }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let flag) = value else { throw mismatch(type, expected: "a boolean") }
        return flag
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .text(let text) = value else { throw mismatch(type, expected: "a text string") }
        return text
    }

    func decode(_ type: Double.Type) throws -> Double { try decodeDouble() }

    func decode(_ type: Float.Type) throws -> Float {
        let number = try decodeDouble()
        let single = Float(number)
        guard single.isFinite || !number.isFinite else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath,
                                                    debugDescription: "\(codingPath.pathDescription): \(number) does not fit Float"))
        }
        return single
    }

    func decode(_ type: Int.Type) throws -> Int { try decodeInteger(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decodeInteger(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decodeInteger(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decodeInteger(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decodeInteger(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try decodeInteger(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeInteger(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeInteger(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeInteger(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeInteger(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type) }
}

struct CBORKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let map: [CBOR: CBOR]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { map.keys.compactMap { $0.string.flatMap(Key.init(stringValue:)) } }

    func contains(_ key: Key) -> Bool { map[.text(key.stringValue)] != nil }

    private func decoder(for key: Key) throws -> CBORDecoderImpl {
        guard let value = map[.text(key.stringValue)] else {
            let path = (codingPath + [key]).pathDescription
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "\(path): missing"))
        }
        return CBORDecoderImpl(value: value, codingPath: codingPath + [key])
    }

    func decodeNil(forKey key: Key) throws -> Bool { try decoder(for: key).decodeNil() }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decoder(for: key).decode(type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decoder(for: key).decode(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decoder(for: key).decode(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decoder(for: key).decode(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decoder(for: key).decode(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decoder(for: key).decode(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decoder(for: key).decode(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decoder(for: key).decode(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decoder(for: key).decode(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decoder(for: key).decode(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decoder(for: key).decode(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decoder(for: key).decode(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decoder(for: key).decode(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decoder(for: key).decode(type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decoder(for: key).decodeValue(type) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder(for: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder(for: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        let key = CBORCodingKey(stringValue: "super")
        return CBORDecoderImpl(value: map[.text(key.stringValue)] ?? .null, codingPath: codingPath + [key])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        CBORDecoderImpl(value: map[.text(key.stringValue)] ?? .null, codingPath: codingPath + [key])
    }
}

struct CBORUnkeyedDecodingContainer: UnkeyedDecodingContainer {
    let elements: [CBOR]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(elements: [CBOR], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    /// The decoder of the next element; advances only when `body` succeeds.
    private mutating func next<T>(_ body: (CBORDecoderImpl) throws -> T) throws -> T {
        let key = CBORCodingKey(intValue: currentIndex)
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(T.self, .init(codingPath: codingPath + [key],
                                                            debugDescription: "\((codingPath + [key]).pathDescription): past the end of an array of \(elements.count)"))
        }
        let result = try body(CBORDecoderImpl(value: elements[currentIndex], codingPath: codingPath + [key]))
        currentIndex += 1
        return result
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex] == .null || elements[currentIndex] == .undefined else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next { try $0.decode(type) } }
    mutating func decode(_ type: String.Type) throws -> String { try next { try $0.decode(type) } }
    mutating func decode(_ type: Double.Type) throws -> Double { try next { try $0.decode(type) } }
    mutating func decode(_ type: Float.Type) throws -> Float { try next { try $0.decode(type) } }
    mutating func decode(_ type: Int.Type) throws -> Int { try next { try $0.decode(type) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next { try $0.decode(type) } }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next { try $0.decode(type) } }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next { try $0.decode(type) } }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next { try $0.decode(type) } }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next { try $0.decode(type) } }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next { try $0.decode(type) } }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next { try $0.decode(type) } }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next { try $0.decode(type) } }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next { try $0.decode(type) } }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next { try $0.decodeValue(type) } }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try next { try $0.container(keyedBy: type) }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try next { try $0.unkeyedContainer() }
    }

    mutating func superDecoder() throws -> any Decoder { try next { $0 } }
}
