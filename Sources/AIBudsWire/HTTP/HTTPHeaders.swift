/// The header fields of an HTTP message, in order, with case-insensitive lookup.
public struct HTTPHeaders: Hashable, Sendable, Sequence, ExpressibleByDictionaryLiteral {
    /// One header field.
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
        values(named: name).contains { value in
            value.split(separator: ",").contains { HTTPHeaders.sameName(String($0.trimmingSpaces), token) }
        }
    }

    /// The `Content-Length`, validated: nil when absent; several fields must agree.
    public func contentLength() throws(HTTPError) -> Int64? {
        let values = values(named: "Content-Length")
        guard !values.isEmpty else { return nil }
        var length: Int64?
        for value in values {
            for part in value.split(separator: ",", omittingEmptySubsequences: false) {
                guard let number = HTTPDecimal.parse(part.trimmingSpaces), length == nil || length == number else {
                    throw HTTPError(.invalidContentLength, "Content-Length \"\(value)\" is not one decimal number")
                }
                length = number
            }
        }
        return length
    }

    /// Compares field names as HTTP does: ASCII case-insensitively.
    static func sameName(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf8.count == rhs.utf8.count
            && zip(lhs.utf8, rhs.utf8).allSatisfy { HTTPHeaders.lower($0) == HTTPHeaders.lower($1) }
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
        guard !text.isEmpty, text.utf8.count <= 18 else { return nil }
        var value: Int64 = 0
        for byte in text.utf8 {
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            value = value * 10 + Int64(byte - 0x30)
        }
        return value
    }
}
