/// `CBOR` as a property of a Codable type: ``CBOREncoder`` and ``CBORDecoder`` embed it as is.
///
/// Other encoders (JSON, for logs) get a best-effort mapping: integers, text, bytes (as `Data`),
/// booleans, floats, arrays, maps (keys as text, non-text keys in their description), tags as their
/// content, and null/undefined/simple values as nil. Other decoders get only the scalar and
/// container kinds they can tell apart: nil, Bool, Int64, UInt64, Double, String, arrays and maps
/// with string keys.
extension CBOR: Codable {
    /// Encodes this item; see the type's Codable notes.
    public func encode(to encoder: any Encoder) throws {
        if let impl = encoder as? CBOREncoderImpl {
            impl.box.map = nil
            impl.box.array = nil
            impl.box.value = self
            return
        }
        switch self {
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(element) }
        case .map(let entries):
            var container = encoder.container(keyedBy: CBORCodingKey.self)
            for (key, value) in entries {
                try container.encode(value, forKey: CBORCodingKey(stringValue: key.string ?? "\(key)"))
            }
        case .tagged(_, let content):
            try content.encode(to: encoder)
        default:
            var container = encoder.singleValueContainer()
            switch self {
            case .unsigned(let number): try container.encode(number)
            case .negative: if let number = int64 { try container.encode(number) } else { try container.encode(double ?? 0) }
            case .bytes(let data): try container.encode(data)
            case .text(let text): try container.encode(text)
            case .bool(let flag): try container.encode(flag)
            case .float(let number): try container.encode(number)
            default: try container.encodeNil()
            }
        }
    }

    /// Decodes an item; see the type's Codable notes.
    public init(from decoder: any Decoder) throws {
        if let impl = decoder as? CBORDecoderImpl {
            self = impl.value
            return
        }
        if let container = try? decoder.singleValueContainer() {
            if container.decodeNil() { self = .null; return }
            if let flag = try? container.decode(Bool.self) { self = .bool(flag); return }
            if let number = try? container.decode(Int64.self) { self = CBOR(integer: number); return }
            if let number = try? container.decode(UInt64.self) { self = .unsigned(number); return }
            if let number = try? container.decode(Double.self) { self = .float(number); return }
            if let text = try? container.decode(String.self) { self = .text(text); return }
        }
        if var container = try? decoder.unkeyedContainer() {
            var elements: [CBOR] = []
            while !container.isAtEnd { elements.append(try container.decode(CBOR.self)) }
            self = .array(elements)
            return
        }
        let container = try decoder.container(keyedBy: CBORCodingKey.self)
        var entries: [CBOR: CBOR] = [:]
        for key in container.allKeys { entries[.text(key.stringValue)] = try container.decode(CBOR.self, forKey: key) }
        self = .map(entries)
    }
}
