import Foundation

/// Encodes `Encodable` values as deterministic CBOR.
///
/// The mapping: keyed containers become maps with text keys, unkeyed containers arrays; `String`
/// is text, `Data` a byte string, integers are CBOR integers, `Bool` a boolean, `Double`/`Float` a
/// float in the shortest exact precision, and a ``CBOR`` property is embedded as is. An optional
/// that is nil omits its key (the synthesized `encodeIfPresent`); an explicit `encodeNil` writes null.
/// A value that encodes nothing at all becomes an empty map, so an empty struct is `{}`.
public struct CBOREncoder: Sendable {
    /// Creates an encoder; it has no options.
    public init() {}

    /// The CBOR bytes of `value`.
    public func encode<T: Encodable>(_ value: T) throws -> Data {
        Data(try encodeValue(value).encoded())
    }

    /// The CBOR item of `value`, before serialisation.
    public func encodeValue<T: Encodable>(_ value: T) throws -> CBOR {
        try CBOREncoding.encode(value, codingPath: [])
    }
}

/// The shared machinery of the encoder's containers.
enum CBOREncoding {
    /// Encodes one value at `codingPath`, handling the types with a direct CBOR form.
    static func encode<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws -> CBOR {
        if let direct = directValue(value) { return direct }
        let box = CBORBox()
        try value.encode(to: CBOREncoderImpl(box: box, codingPath: codingPath))
        return box.resolved
    }

    /// The CBOR of values that bypass their own `encode(to:)`.
    private static func directValue(_ value: some Encodable) -> CBOR? {
        switch value {
        case let cbor as CBOR: return cbor
        case let data as Data: return .bytes(data)
        default: return nil
        }
    }
}

/// A growing CBOR item: one value, or a map or array whose members are still being encoded.
final class CBORBox {
    var value: CBOR?
    var map: [String: CBORBox]?
    var array: [CBORBox]?

    /// The finished item (an empty map when nothing was encoded).
    var resolved: CBOR {
        if let map {
            return .map(Dictionary(uniqueKeysWithValues: map.map { (CBOR.text($0.key), $0.value.resolved) }))
        }
        if let array { return .array(array.map(\.resolved)) }
        return value ?? .map([:])
    }

    static func holding(_ value: CBOR) -> CBORBox {
        let box = CBORBox()
        box.value = value
        return box
    }

    func makeMap() {
        if map == nil { map = [:]; array = nil; value = nil }
    }

    func makeArray() {
        if array == nil { array = []; map = nil; value = nil }
    }
}

/// The `Encoder` handed to `encode(to:)`.
struct CBOREncoderImpl: Encoder {
    let box: CBORBox
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        box.makeMap()
        return KeyedEncodingContainer(CBORKeyedEncodingContainer<Key>(box: box, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        box.makeArray()
        return CBORUnkeyedEncodingContainer(box: box, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        CBORSingleValueEncodingContainer(box: box, codingPath: codingPath)
    }
}

struct CBORKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let box: CBORBox
    let codingPath: [any CodingKey]

    private func set(_ value: CBOR, _ key: Key) { box.map?[key.stringValue] = .holding(value) }

    mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(.text(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { set(.float(value), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { set(.float(Double(value)), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(CBOR(integer: value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(CBOR(integer: value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(CBOR(integer: value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(CBOR(integer: value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(CBOR(integer: value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(CBOR(integer: value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(CBOR(integer: value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(CBOR(integer: value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(CBOR(integer: value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(CBOR(integer: value), key) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        set(try CBOREncoding.encode(value, codingPath: codingPath + [key]), key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type,
                                                        forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let child = CBORBox()
        child.makeMap()
        box.map?[key.stringValue] = child
        return KeyedEncodingContainer(CBORKeyedEncodingContainer<NestedKey>(box: child, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = CBORBox()
        child.makeArray()
        box.map?[key.stringValue] = child
        return CBORUnkeyedEncodingContainer(box: child, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder { superEncoder(named: CBORCodingKey(stringValue: "super")) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key) }

    private func superEncoder(named key: any CodingKey) -> any Encoder {
        let child = CBORBox()
        box.map?[key.stringValue] = child
        return CBOREncoderImpl(box: child, codingPath: codingPath + [key])
    }
}

struct CBORUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let box: CBORBox
    let codingPath: [any CodingKey]
    var count: Int { box.array?.count ?? 0 }

    private func append(_ value: CBOR) { box.array?.append(.holding(value)) }
    private var nextKey: CBORCodingKey { CBORCodingKey(intValue: count) }

    mutating func encodeNil() throws { append(.null) }
    mutating func encode(_ value: Bool) throws { append(.bool(value)) }
    mutating func encode(_ value: String) throws { append(.text(value)) }
    mutating func encode(_ value: Double) throws { append(.float(value)) }
    mutating func encode(_ value: Float) throws { append(.float(Double(value))) }
    mutating func encode(_ value: Int) throws { append(CBOR(integer: value)) }
    mutating func encode(_ value: Int8) throws { append(CBOR(integer: value)) }
    mutating func encode(_ value: Int16) throws { append(CBOR(integer: value)) }
    mutating func encode(_ value: Int32) throws { append(CBOR(integer: value)) }
    mutating func encode(_ value: Int64) throws { append(CBOR(integer: value)) }
    mutating func encode(_ value: UInt) throws { append(CBOR(integer: value)) }
    mutating func encode(_ value: UInt8) throws { append(CBOR(integer: value)) }
    mutating func encode(_ value: UInt16) throws { append(CBOR(integer: value)) }
    mutating func encode(_ value: UInt32) throws { append(CBOR(integer: value)) }
    mutating func encode(_ value: UInt64) throws { append(CBOR(integer: value)) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        append(try CBOREncoding.encode(value, codingPath: codingPath + [nextKey]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let child = CBORBox()
        child.makeMap()
        let path = codingPath + [nextKey]
        box.array?.append(child)
        return KeyedEncodingContainer(CBORKeyedEncodingContainer<NestedKey>(box: child, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = CBORBox()
        child.makeArray()
        let path = codingPath + [nextKey]
        box.array?.append(child)
        return CBORUnkeyedEncodingContainer(box: child, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
        let child = CBORBox()
        let path = codingPath + [nextKey]
        box.array?.append(child)
        return CBOREncoderImpl(box: child, codingPath: path)
    }
}

struct CBORSingleValueEncodingContainer: SingleValueEncodingContainer {
    let box: CBORBox
    let codingPath: [any CodingKey]

    private func set(_ value: CBOR) {
        box.map = nil
        box.array = nil
        box.value = value
    }

    mutating func encodeNil() throws { set(.null) }
    mutating func encode(_ value: Bool) throws { set(.bool(value)) }
    mutating func encode(_ value: String) throws { set(.text(value)) }
    mutating func encode(_ value: Double) throws { set(.float(value)) }
    mutating func encode(_ value: Float) throws { set(.float(Double(value))) }
    mutating func encode(_ value: Int) throws { set(CBOR(integer: value)) }
    mutating func encode(_ value: Int8) throws { set(CBOR(integer: value)) }
    mutating func encode(_ value: Int16) throws { set(CBOR(integer: value)) }
    mutating func encode(_ value: Int32) throws { set(CBOR(integer: value)) }
    mutating func encode(_ value: Int64) throws { set(CBOR(integer: value)) }
    mutating func encode(_ value: UInt) throws { set(CBOR(integer: value)) }
    mutating func encode(_ value: UInt8) throws { set(CBOR(integer: value)) }
    mutating func encode(_ value: UInt16) throws { set(CBOR(integer: value)) }
    mutating func encode(_ value: UInt32) throws { set(CBOR(integer: value)) }
    mutating func encode(_ value: UInt64) throws { set(CBOR(integer: value)) }
    mutating func encode<T: Encodable>(_ value: T) throws { set(try CBOREncoding.encode(value, codingPath: codingPath)) }
}
