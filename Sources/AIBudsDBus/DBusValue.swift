import CDBus
import Foundation

/// One D-Bus value with its type, as it travels in a message body.
///
/// Arrays and dictionaries carry their element signature, so an empty one still marshals with the
/// right type. A `unixFD` is a file descriptor this process owns: one read from a message is a
/// duplicate the reader must close; one appended to a message is duplicated by libdbus, so the
/// caller still closes its own.
public indirect enum DBusValue: Sendable, Hashable {
    /// `y`
    case byte(UInt8)
    /// `b`
    case bool(Bool)
    /// `n`
    case int16(Int16)
    /// `q`
    case uint16(UInt16)
    /// `i`
    case int32(Int32)
    /// `u`
    case uint32(UInt32)
    /// `x`
    case int64(Int64)
    /// `t`
    case uint64(UInt64)
    /// `d`: an IEEE 754 double.
    case double(Double)
    /// `s`
    case string(String)
    /// `o`
    case objectPath(String)
    /// `g`
    case signature(String)
    /// `h`: a file descriptor passed over the bus.
    case unixFD(Int32)
    /// `a<element>`: the element signature and the elements.
    case array(String, [DBusValue])
    /// `a{<key><value>}`: key and value signatures and the entries, in order.
    case dict(String, String, [DBusDictEntry])
    /// `(…)`: the fields.
    case structure([DBusValue])
    /// `v`: any one value with its own signature.
    case variant(DBusValue)

    /// The type code string libdbus needs to marshal this value (`a{sv}`, `(ii)`, `v`).
    public var signature: String {
        switch self {
        case .byte: "y"
        case .bool: "b"
        case .int16: "n"
        case .uint16: "q"
        case .int32: "i"
        case .uint32: "u"
        case .int64: "x"
        case .uint64: "t"
        case .double: "d"
        case .string: "s"
        case .objectPath: "o"
        case .signature: "g"
        case .unixFD: "h"
        case .array(let element, _): "a" + element
        case .dict(let key, let value, _): "a{" + key + value + "}"
        case .structure(let fields): "(" + fields.map(\.signature).joined() + ")"
        case .variant: "v"
        }
    }

    /// An `a{sv}` dictionary, the shape of D-Bus properties and BlueZ options.
    public static func properties(_ entries: [(String, DBusValue)]) -> DBusValue {
        .dict("s", "v", entries.map { DBusDictEntry(key: .string($0.0), value: .variant($0.1)) })
    }

    /// An `ay` byte array.
    public static func bytes(_ data: Data) -> DBusValue {
        .array("y", data.map { .byte($0) })
    }

    /// An `as` string array.
    public static func strings(_ values: [String]) -> DBusValue {
        .array("s", values.map { .string($0) })
    }

    // MARK: Reading

    /// The value inside a variant (recursively), else the value itself.
    public var unwrapped: DBusValue {
        if case .variant(let inner) = self { return inner.unwrapped }
        return self
    }

    /// The text of a string, object path or signature.
    public var stringValue: String? {
        switch unwrapped {
        case .string(let text), .objectPath(let text), .signature(let text): text
        default: nil
        }
    }

    /// The truth value of a `b`.
    public var boolValue: Bool? {
        if case .bool(let value) = unwrapped { return value }
        return nil
    }

    /// Any integer type as an `Int` (nil when it does not fit).
    public var intValue: Int? {
        switch unwrapped {
        case .byte(let v): Int(v)
        case .int16(let v): Int(v)
        case .uint16(let v): Int(v)
        case .int32(let v): Int(v)
        case .uint32(let v): Int(v)
        case .int64(let v): Int(v)
        case .uint64(let v): Int(exactly: v)
        default: nil
        }
    }

    /// The bytes of an `ay`.
    public var dataValue: Data? {
        guard case .array("y", let elements) = unwrapped else { return nil }
        var data = Data(capacity: elements.count)
        for element in elements {
            guard case .byte(let byte) = element else { return nil }
            data.append(byte)
        }
        return data
    }

    /// The strings of an `as` (or `ao`).
    public var stringArray: [String]? {
        guard case .array(_, let elements) = unwrapped else { return nil }
        let strings = elements.compactMap(\.stringValue)
        return strings.count == elements.count ? strings : nil
    }

    /// The entries of an `a{sv}` keyed by name, values unwrapped from their variants; nil for other
    /// types.
    public var propertyMap: [String: DBusValue]? {
        guard case .dict(_, _, let entries) = unwrapped else { return nil }
        var map: [String: DBusValue] = [:]
        for entry in entries {
            guard let key = entry.key.stringValue else { return nil }
            map[key] = entry.value.unwrapped
        }
        return map
    }

    /// The entries of any dictionary, values unwrapped from their variants.
    public var dictEntries: [DBusDictEntry]? {
        guard case .dict(_, _, let entries) = unwrapped else { return nil }
        return entries.map { DBusDictEntry(key: $0.key, value: $0.value.unwrapped) }
    }
}

/// One `{key value}` entry of a D-Bus dictionary.
public struct DBusDictEntry: Sendable, Hashable {
    /// The key (a basic type).
    public var key: DBusValue
    /// What the key maps to (any type).
    public var value: DBusValue

    /// Pairs a key with its value for a ``DBusValue/dict(_:_:_:)``.
    public init(key: DBusValue, value: DBusValue) {
        self.key = key
        self.value = value
    }
}

/// Why a message body could not be written or read.
public struct DBusMarshalError: Error, CustomStringConvertible {
    /// What went wrong.
    public var description: String
}

// MARK: - Marshalling with libdbus iterators

extension DBusValue {
    /// Appends this value at `iterator` (libdbus copies strings and duplicates descriptors).
    func append(to iterator: UnsafeMutablePointer<DBusMessageIter>) throws(DBusMarshalError) {
        func basic<T: BitwiseCopyable>(_ type: Int32, _ value: T) throws(DBusMarshalError) {
            var copy = value
            let ok = withUnsafeMutableBytes(of: &copy) { dbus_message_iter_append_basic(iterator, type, $0.baseAddress) != 0 }
            guard ok else {
                throw DBusMarshalError(description: "out of memory appending a \(signature)")
            }
        }
        func string(_ type: Int32, _ text: String) throws(DBusMarshalError) {
            let ok = text.withCString { pointer -> Bool in
                var p: UnsafePointer<CChar>? = pointer
                return dbus_message_iter_append_basic(iterator, type, &p) != 0
            }
            guard ok else { throw DBusMarshalError(description: "cannot append \(signature) \"\(text.prefix(40))\"") }
        }
        func container(
            _ type: Int32, _ contained: String?, in parent: UnsafeMutablePointer<DBusMessageIter>? = nil,
            _ body: (UnsafeMutablePointer<DBusMessageIter>) throws(DBusMarshalError) -> Void
        ) throws(DBusMarshalError) {
            let iterator = parent ?? iterator
            let sub = UnsafeMutablePointer<DBusMessageIter>.allocate(capacity: 1)
            defer { sub.deallocate() }
            let opened: Bool
            if let contained {
                opened = contained.withCString { dbus_message_iter_open_container(iterator, type, $0, sub) != 0 }
            } else {
                opened = dbus_message_iter_open_container(iterator, type, nil, sub) != 0
            }
            guard opened else { throw DBusMarshalError(description: "cannot open a \(signature) container") }
            do {
                try body(sub)
            } catch {
                dbus_message_iter_abandon_container(iterator, sub)
                throw error
            }
            guard dbus_message_iter_close_container(iterator, sub) != 0 else {
                throw DBusMarshalError(description: "cannot close a \(signature) container")
            }
        }
        switch self {
        case .byte(let v): try basic(DBUS_TYPE_BYTE, v)
        case .bool(let v): try basic(DBUS_TYPE_BOOLEAN, dbus_bool_t(v ? 1 : 0))
        case .int16(let v): try basic(DBUS_TYPE_INT16, v)
        case .uint16(let v): try basic(DBUS_TYPE_UINT16, v)
        case .int32(let v): try basic(DBUS_TYPE_INT32, v)
        case .uint32(let v): try basic(DBUS_TYPE_UINT32, v)
        case .int64(let v): try basic(DBUS_TYPE_INT64, v)
        case .uint64(let v): try basic(DBUS_TYPE_UINT64, v)
        case .double(let v): try basic(DBUS_TYPE_DOUBLE, v)
        case .unixFD(let v): try basic(DBUS_TYPE_UNIX_FD, v)
        case .string(let v): try string(DBUS_TYPE_STRING, v)
        case .objectPath(let v): try string(DBUS_TYPE_OBJECT_PATH, v)
        case .signature(let v): try string(DBUS_TYPE_SIGNATURE, v)
        case .array(let element, let elements):
            if element == "y", elements.allSatisfy({ if case .byte = $0 { true } else { false } }) {
                // Bytes go in one call.
                let bytes: [UInt8] = elements.map { element -> UInt8 in if case .byte(let b) = element { return b }; return 0 }
                try container(DBUS_TYPE_ARRAY, "y") { sub throws(DBusMarshalError) in
                    let ok = bytes.withUnsafeBufferPointer { buffer -> Bool in
                        var base: UnsafePointer<UInt8>? = buffer.baseAddress ?? UnsafePointer(bitPattern: 1)
                        return dbus_message_iter_append_fixed_array(sub, DBUS_TYPE_BYTE, &base, Int32(buffer.count)) != 0
                    }
                    guard ok else { throw DBusMarshalError(description: "cannot append \(bytes.count) bytes") }
                }
            } else {
                try container(DBUS_TYPE_ARRAY, element) { sub throws(DBusMarshalError) in
                    for value in elements {
                        guard value.signature == element else {
                            throw DBusMarshalError(description: "a \(value.signature) in an array of \(element)")
                        }
                        try value.append(to: sub)
                    }
                }
            }
        case .dict(let key, let value, let entries):
            try container(DBUS_TYPE_ARRAY, "{" + key + value + "}") { sub throws(DBusMarshalError) in
                for entry in entries {
                    try container(DBUS_TYPE_DICT_ENTRY, nil, in: sub) { pair throws(DBusMarshalError) in
                        try entry.key.append(to: pair)
                        try entry.value.append(to: pair)
                    }
                }
            }
        case .structure(let fields):
            try container(DBUS_TYPE_STRUCT, nil) { sub throws(DBusMarshalError) in
                for field in fields { try field.append(to: sub) }
            }
        case .variant(let inner):
            try container(DBUS_TYPE_VARIANT, inner.signature) { sub throws(DBusMarshalError) in
                try inner.append(to: sub)
            }
        }
    }

    /// Reads every value from `iterator` to its end.
    static func readAll(_ iterator: UnsafeMutablePointer<DBusMessageIter>) throws(DBusMarshalError) -> [DBusValue] {
        var values: [DBusValue] = []
        while dbus_message_iter_get_arg_type(iterator) != DBUS_TYPE_INVALID {
            values.append(try read(iterator))
            dbus_message_iter_next(iterator)
        }
        return values
    }

    /// Reads the value at `iterator`.
    static func read(_ iterator: UnsafeMutablePointer<DBusMessageIter>) throws(DBusMarshalError) -> DBusValue {
        func basic<T: BitwiseCopyable>(_ initial: T) -> T {
            var value = initial
            withUnsafeMutableBytes(of: &value) { dbus_message_iter_get_basic(iterator, $0.baseAddress) }
            return value
        }
        func text() -> String {
            var pointer: UnsafePointer<CChar>? = nil
            dbus_message_iter_get_basic(iterator, &pointer)
            return pointer.map { String(cString: $0) } ?? ""
        }
        let type = dbus_message_iter_get_arg_type(iterator)
        switch type {
        case DBUS_TYPE_BYTE: return .byte(basic(UInt8(0)))
        case DBUS_TYPE_BOOLEAN: return .bool(basic(dbus_bool_t(0)) != 0)
        case DBUS_TYPE_INT16: return .int16(basic(Int16(0)))
        case DBUS_TYPE_UINT16: return .uint16(basic(UInt16(0)))
        case DBUS_TYPE_INT32: return .int32(basic(Int32(0)))
        case DBUS_TYPE_UINT32: return .uint32(basic(UInt32(0)))
        case DBUS_TYPE_INT64: return .int64(basic(Int64(0)))
        case DBUS_TYPE_UINT64: return .uint64(basic(UInt64(0)))
        case DBUS_TYPE_DOUBLE: return .double(basic(Double(0)))
        case DBUS_TYPE_UNIX_FD: return .unixFD(basic(Int32(-1)))
        case DBUS_TYPE_STRING: return .string(text())
        case DBUS_TYPE_OBJECT_PATH: return .objectPath(text())
        case DBUS_TYPE_SIGNATURE: return .signature(text())
        case DBUS_TYPE_ARRAY:
            let sub = UnsafeMutablePointer<DBusMessageIter>.allocate(capacity: 1)
            defer { sub.deallocate() }
            dbus_message_iter_recurse(iterator, sub)
            let elementType = dbus_message_iter_get_element_type(iterator)
            let full: String = {
                guard let raw = dbus_message_iter_get_signature(iterator) else { return "a" }
                defer { dbus_free(raw) }
                return String(cString: raw)
            }()
            let element = String(full.dropFirst())
            if elementType == DBUS_TYPE_BYTE {
                var base: UnsafeRawPointer? = nil
                var count: Int32 = 0
                dbus_message_iter_get_fixed_array(sub, &base, &count)
                guard let base, count > 0 else { return .array("y", []) }
                let bytes = UnsafeRawBufferPointer(start: base, count: Int(count))
                return .array("y", bytes.map { .byte($0) })
            }
            if elementType == DBUS_TYPE_DICT_ENTRY {
                let inner = element.dropFirst().dropLast()  // key + value signatures
                let key = String(inner.prefix(1))
                let value = String(inner.dropFirst())
                var entries: [DBusDictEntry] = []
                while dbus_message_iter_get_arg_type(sub) == DBUS_TYPE_DICT_ENTRY {
                    let pair = UnsafeMutablePointer<DBusMessageIter>.allocate(capacity: 1)
                    defer { pair.deallocate() }
                    dbus_message_iter_recurse(sub, pair)
                    let values = try readAll(pair)
                    guard values.count == 2 else { throw DBusMarshalError(description: "a dict entry of \(values.count) values") }
                    entries.append(DBusDictEntry(key: values[0], value: values[1]))
                    dbus_message_iter_next(sub)
                }
                return .dict(key, value, entries)
            }
            return .array(element, try readAll(sub))
        case DBUS_TYPE_STRUCT:
            let sub = UnsafeMutablePointer<DBusMessageIter>.allocate(capacity: 1)
            defer { sub.deallocate() }
            dbus_message_iter_recurse(iterator, sub)
            return .structure(try readAll(sub))
        case DBUS_TYPE_VARIANT:
            let sub = UnsafeMutablePointer<DBusMessageIter>.allocate(capacity: 1)
            defer { sub.deallocate() }
            dbus_message_iter_recurse(iterator, sub)
            return .variant(try read(sub))
        default:
            throw DBusMarshalError(description: "unsupported D-Bus type code \(type)")
        }
    }
}

/// libdbus's type codes (its `DBUS_TYPE_*` macros are character literals Swift does not import).
private func code(_ character: Unicode.Scalar) -> Int32 { Int32(character.value) }
let DBUS_TYPE_INVALID: Int32 = 0
let DBUS_TYPE_BYTE = code("y")
let DBUS_TYPE_BOOLEAN = code("b")
let DBUS_TYPE_INT16 = code("n")
let DBUS_TYPE_UINT16 = code("q")
let DBUS_TYPE_INT32 = code("i")
let DBUS_TYPE_UINT32 = code("u")
let DBUS_TYPE_INT64 = code("x")
let DBUS_TYPE_UINT64 = code("t")
let DBUS_TYPE_DOUBLE = code("d")
let DBUS_TYPE_STRING = code("s")
let DBUS_TYPE_OBJECT_PATH = code("o")
let DBUS_TYPE_SIGNATURE = code("g")
let DBUS_TYPE_UNIX_FD = code("h")
let DBUS_TYPE_ARRAY = code("a")
let DBUS_TYPE_VARIANT = code("v")
let DBUS_TYPE_STRUCT = code("r")
let DBUS_TYPE_DICT_ENTRY = code("e")
