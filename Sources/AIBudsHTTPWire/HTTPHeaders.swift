/// The header fields of an HTTP message, in order, with case-insensitive lookup.
public struct HTTPHeaders: Hashable, Sendable, Sequence, ExpressibleByDictionaryLiteral {
    /// A name and value pair as it appears on one header line.
    public struct Field: Hashable, Sendable {
        /// The field name as written.
        public var name: String
        /// The field value, without surrounding whitespace.
        public var value: String
    }

    /// The fields in order.
    public private(set) var fields: [Field] = []

    /// Creates an empty header list.
    public init() {}

    /// Creates a header list from name–value pairs, in order.
    public init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { add(name: name, value: value) }
    }

    /// Appends a field.
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field of that name with one field, or appends it.
    public mutating func replaceOrAdd(name: String, value: String) {
        remove(name: name)
        add(name: name, value: value)
    }

    /// Removes every field of that name.
    public mutating func remove(name: String) {
        fields.removeAll { HTTPHeaders.sameName($0.name, name) }
    }

    /// The value of the first field with that name, case-insensitively.
    public subscript(name: String) -> String? {
        fields.first { HTTPHeaders.sameName($0.name, name) }?.value
    }

    /// Every value of the fields with that name, in order.
    public func values(named name: String) -> [String] {
        fields.filter { HTTPHeaders.sameName($0.name, name) }.map(\.value)
    }

    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// Whether a comma-separated field (such as `Connection`) lists `token`, case-insensitively.
    public func containsToken(_ token: String, inFieldNamed name: String) -> Bool {
        var token = token
        return token.withUTF8 { wanted in
            fields.contains { field in
                HTTPHeaders.sameName(field.name, name)
                    && HTTPHeaders.firstElement(of: field.value, keepingEmpty: false) { HTTPHeaders.sameBytes($0, wanted) }
            }
        }
    }

    /// The `Content-Length`, validated: nil when absent; several fields must agree.
    public func contentLength() throws(HTTPError) -> Int64? {
        var length: Int64?
        for field in fields where HTTPHeaders.sameName(field.name, "Content-Length") {
            // Empty elements count too: "5," is not one decimal number.
            let invalid = HTTPHeaders.firstElement(of: field.value, keepingEmpty: true) { element in
                guard let number = HTTPDecimal.parse(element), length == nil || length == number else { return true }
                length = number
                return false
            }
            if invalid { throw HTTPError(.invalidContentLength, "Content-Length \"\(field.value)\" is not one decimal number") }
        }
        return length
    }

    /// Compares field names as HTTP does: ASCII case-insensitively.
    static func sameName(_ lhs: String, _ rhs: String) -> Bool {
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        var lhs = lhs
        var rhs = rhs
        return lhs.withUTF8 { a in rhs.withUTF8 { b in sameBytes(a, b) } }
    }

    /// Whether two byte strings are equal, ASCII case-insensitively.
    private static func sameBytes(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        for index in 0..<a.count where lower(a[index]) != lower(b[index]) { return false }
        return true
    }

    /// Whether `matches` holds for an element of a comma-separated value (the elements in order,
    /// without the spaces and tabs around them; empty ones only when `keepingEmpty`).
    private static func firstElement(
        of value: String, keepingEmpty: Bool, where matches: (UnsafeBufferPointer<UInt8>) -> Bool
    ) -> Bool {
        var value = value
        return value.withUTF8 { bytes in
            var start = 0
            for end in 0...bytes.count where end == bytes.count || bytes[end] == UInt8(ascii: ",") {
                var first = start
                var last = end
                while first < last, bytes[first] == 0x20 || bytes[first] == 0x09 { first += 1 }
                while last > first, bytes[last - 1] == 0x20 || bytes[last - 1] == 0x09 { last -= 1 }
                if keepingEmpty || last > first, matches(UnsafeBufferPointer(rebasing: bytes[first..<last])) { return true }
                start = end + 1
            }
            return false
        }
    }

    private static func lower(_ byte: UInt8) -> UInt8 {
        (byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs (HTTP's optional whitespace).
    var trimmingSpaces: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return text
    }
}

/// Parsing of the non-negative decimal numbers HTTP uses in lengths and ranges.
enum HTTPDecimal {
    /// A 1*DIGIT number of at most 18 digits (so it fits `Int64`), else nil.
    static func parse(_ text: Substring) -> Int64? {
        parse(bytes: text.utf8)
    }

    /// A 1*DIGIT number of at most 18 digits, from its bytes.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        parse(bytes: bytes)
    }

    private static func parse(bytes: some Collection<UInt8>) -> Int64? {
        guard !bytes.isEmpty, bytes.count <= 18 else { return nil }
        var value: Int64 = 0
        for byte in bytes {
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            value = value * 10 + Int64(byte - 0x30)
        }
        return value
    }
}
