import Foundation

extension CBOR {
    /// Decodes exactly one CBOR item from `bytes`, strictly and within `limits`.
    ///
    /// Accepts every well-formed encoding (non-shortest heads, indefinite lengths, all float
    /// precisions) but rejects: truncated input, declared lengths larger than the remaining input
    /// (checked before anything is allocated), reserved additional information 28–30, indefinite
    /// integers or tags, chunks of an indefinite string that are not definite strings of the same
    /// major type, "break" outside an indefinite item, two-byte simple values below 32, invalid
    /// UTF-8 text, duplicate map keys, bytes after the item, and anything past `limits`.
    public static func decode(_ bytes: some Collection<UInt8>, limits: CBORLimits = .default) throws(CBORError) -> CBOR {
        var reader = CBORReader(bytes: Array(bytes), limits: limits)
        let item = try reader.readItem(depth: 0)
        guard reader.offset == reader.bytes.count else {
            throw CBORError(.trailingBytes, offset: reader.offset,
                            "\(reader.bytes.count - reader.offset) bytes after the end of the item")
        }
        return item
    }
}

/// A cursor over CBOR bytes that reads one item at a time, enforcing ``CBORLimits``.
struct CBORReader {
    /// The whole input.
    let bytes: [UInt8]
    /// The next byte to read.
    var offset = 0
    private let limits: CBORLimits
    private var items = 0

    /// The hard cap on nesting whatever the limits say, so recursion cannot exhaust a thread's stack.
    static let depthCap = 512

    init(bytes: [UInt8], limits: CBORLimits) {
        self.bytes = bytes
        self.limits = limits
    }

    private var remaining: Int { bytes.count - offset }

    /// The head of an item: major type, additional information and argument (nil when indefinite).
    private struct Head {
        var major: UInt8
        var info: UInt8
        var argument: UInt64?
        var start: Int
    }

    /// Reads one complete item at nesting `depth`.
    mutating func readItem(depth: Int) throws(CBORError) -> CBOR {
        let head = try readHead()
        if head.major == 7, head.info == 31 {
            throw CBORError(.unexpectedBreak, offset: head.start, "break outside an indefinite-length item")
        }
        return try readBody(head, depth: depth)
    }

    private mutating func countItem(at start: Int) throws(CBORError) {
        items += 1
        if items > limits.maxItems {
            throw CBORError(.itemLimitExceeded, offset: start, "more than \(limits.maxItems) items")
        }
    }

    private mutating func readHead() throws(CBORError) -> Head {
        let start = offset
        guard offset < bytes.count else { throw CBORError(.truncated, offset: offset, "input ends where an item was expected") }
        let initial = bytes[offset]
        offset += 1
        let major = initial >> 5
        let info = initial & 0x1F
        switch info {
        case 0..<24:
            return Head(major: major, info: info, argument: UInt64(info), start: start)
        case 24...27:
            let size = 1 << Int(info - 24)
            guard remaining >= size else {
                throw CBORError(.truncated, offset: offset, "input ends inside a \(size)-byte argument")
            }
            var value: UInt64 = 0
            for index in 0..<size { value = value << 8 | UInt64(bytes[offset + index]) }
            offset += size
            return Head(major: major, info: info, argument: value, start: start)
        case 28...30:
            throw CBORError(.reservedAdditionalInfo, offset: start, "reserved additional information \(info)")
        default:
            return Head(major: major, info: info, argument: nil, start: start)
        }
    }

    private mutating func readBody(_ head: Head, depth: Int) throws(CBORError) -> CBOR {
        try countItem(at: head.start)
        switch head.major {
        case 0, 1, 6:
            guard let argument = head.argument else {
                throw CBORError(.invalidIndefiniteLength, offset: head.start, "major type \(head.major) cannot have an indefinite length")
            }
            if head.major == 0 { return .unsigned(argument) }
            if head.major == 1 { return .negative(argument) }
            try checkDepth(depth + 1, at: head.start)
            return .tagged(argument, try readItem(depth: depth + 1))
        case 2, 3:
            if let length = head.argument {
                // Straight from the input: no intermediate copy of the string's bytes.
                let range = try stringRange(length: length, at: head.start)
                if head.major == 2 { return .bytes(Data(bytes[range])) }
                guard let text = String(validating: bytes[range], as: UTF8.self) else {
                    throw CBORError(.invalidUTF8, offset: head.start, "text string is not valid UTF-8")
                }
                return .text(text)
            }
            let content = try readIndefiniteString(major: head.major, start: head.start)
            if head.major == 2 { return .bytes(Data(content)) }
            return .text(try decodeUTF8(content, at: head.start))
        case 4:
            try checkDepth(depth + 1, at: head.start)
            var elements: [CBOR] = []
            if let count = head.argument {
                guard count <= UInt64(remaining) else {
                    throw CBORError(.lengthExceedsInput, offset: head.start, "array of \(count) items but only \(remaining) bytes remain")
                }
                elements.reserveCapacity(Int(count))
                for _ in 0..<count { elements.append(try readItem(depth: depth + 1)) }
            } else {
                while try !atBreak() { elements.append(try readItem(depth: depth + 1)) }
            }
            return .array(elements)
        case 5:
            try checkDepth(depth + 1, at: head.start)
            var entries: [CBOR: CBOR] = [:]
            if let count = head.argument {
                guard count <= UInt64(remaining / 2) else {
                    throw CBORError(.lengthExceedsInput, offset: head.start, "map of \(count) entries but only \(remaining) bytes remain")
                }
                entries.reserveCapacity(Int(count))
                for _ in 0..<count { try readEntry(into: &entries, depth: depth + 1) }
            } else {
                while try !atBreak() { try readEntry(into: &entries, depth: depth + 1) }
            }
            return .map(entries)
        default:
            return try readSimple(head)
        }
    }

    private func checkDepth(_ depth: Int, at start: Int) throws(CBORError) {
        let maxDepth = min(limits.maxDepth, Self.depthCap)
        if depth > maxDepth {
            throw CBORError(.depthLimitExceeded, offset: start, "nesting deeper than \(maxDepth)")
        }
    }

    /// Consumes a break byte if one is next; throws when the input ends first.
    private mutating func atBreak() throws(CBORError) -> Bool {
        guard offset < bytes.count else {
            throw CBORError(.truncated, offset: offset, "input ends inside an indefinite-length item")
        }
        if bytes[offset] == 0xFF {
            offset += 1
            return true
        }
        return false
    }

    private mutating func readEntry(into entries: inout [CBOR: CBOR], depth: Int) throws(CBORError) {
        let keyStart = offset
        let key = try readItem(depth: depth)
        if offset < bytes.count, bytes[offset] == 0xFF {
            throw CBORError(.unexpectedBreak, offset: offset, "break where a map value was expected")
        }
        let value = try readItem(depth: depth)
        if entries.updateValue(value, forKey: key) != nil {
            throw CBORError(.duplicateMapKey, offset: keyStart, "map key \(key) appears twice")
        }
    }

    private mutating func readString(length: UInt64, at start: Int) throws(CBORError) -> [UInt8] {
        Array(bytes[try stringRange(length: length, at: start)])
    }

    /// The bounds of a definite-length string's content, checked against the limits and the
    /// input; moves past it.
    private mutating func stringRange(length: UInt64, at start: Int) throws(CBORError) -> Range<Int> {
        guard length <= UInt64(max(0, limits.maxLength)) else {
            throw CBORError(.lengthLimitExceeded, offset: start, "string of \(length) bytes exceeds the limit of \(limits.maxLength)")
        }
        guard length <= UInt64(remaining) else {
            throw CBORError(.lengthExceedsInput, offset: start, "string of \(length) bytes but only \(remaining) bytes remain")
        }
        let range = offset..<offset + Int(length)
        offset += Int(length)
        return range
    }

    private mutating func readIndefiniteString(major: UInt8, start: Int) throws(CBORError) -> [UInt8] {
        var content: [UInt8] = []
        while try !atBreak() {
            let chunk = try readHead()
            guard chunk.major == major, let length = chunk.argument else {
                throw CBORError(.invalidChunk, offset: chunk.start,
                                "a chunk of an indefinite-length \(major == 2 ? "byte" : "text") string must be a definite-length string of the same type")
            }
            try countItem(at: chunk.start)
            guard length <= UInt64(max(0, limits.maxLength - content.count)) else {
                throw CBORError(.lengthLimitExceeded, offset: chunk.start, "string exceeds the limit of \(limits.maxLength) bytes")
            }
            let piece = try readString(length: length, at: chunk.start)
            if major == 3 { _ = try decodeUTF8(piece, at: chunk.start) }
            content.append(contentsOf: piece)
        }
        return content
    }

    private func decodeUTF8(_ content: [UInt8], at start: Int) throws(CBORError) -> String {
        guard let text = String(validating: content, as: UTF8.self) else {
            throw CBORError(.invalidUTF8, offset: start, "text string is not valid UTF-8")
        }
        return text
    }

    private mutating func readSimple(_ head: Head) throws(CBORError) -> CBOR {
        guard let argument = head.argument else {
            throw CBORError(.unexpectedBreak, offset: head.start, "break outside an indefinite-length item")
        }
        switch head.info {
        case 0..<20: return .simple(head.info)
        case 20: return .bool(false)
        case 21: return .bool(true)
        case 22: return .null
        case 23: return .undefined
        case 24:
            guard argument >= 32 else {
                throw CBORError(.invalidSimpleValue, offset: head.start, "two-byte simple value \(argument) must be at least 32")
            }
            return .simple(UInt8(argument))
        case 25: return .float(CBORFloat.double(fromHalf: UInt16(argument)))
        case 26: return .float(Double(Float(bitPattern: UInt32(argument))))
        default: return .float(Double(bitPattern: argument))
        }
    }
}
