/// One byte range of a `Range: bytes=…` request header (RFC 9110 §14.1.2).
public enum HTTPByteRange: Hashable, Sendable {
    /// `bytes=A-B`: from byte A through byte B, inclusive.
    case closed(first: Int64, last: Int64)
    /// `bytes=A-`: from byte A to the end.
    case from(first: Int64)
    /// `bytes=-N`: the last N bytes.
    case suffix(length: Int64)

    /// Parses a `Range` value holding exactly one byte range; throws `HTTPError.invalidRange`
    /// for anything else (other units, several ranges, bad numbers), which a server ignores.
    public init(parsing value: String) throws {
        let text = Substring(value).trimmingSpaces
        guard text.utf8.count > 6, HTTPHeaders.sameName(String(text.prefix(6)), "bytes=") else {
            throw HTTPError(.invalidRange, "Range \"\(value.prefix(100))\" is not in bytes")
        }
        let spec = text.dropFirst(6).trimmingSpaces
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else {
            throw HTTPError(.invalidRange, "Range \"\(value.prefix(100))\" is not one byte range")
        }
        let start = spec[..<dash]
        let end = spec[spec.index(after: dash)...]
        switch (HTTPDecimal.parse(start), HTTPDecimal.parse(end)) {
        case (let first?, let last?) where last >= first:
            self = .closed(first: first, last: last)
        case (let first?, nil) where end.isEmpty:
            self = .from(first: first)
        case (nil, let length?) where start.isEmpty:
            self = .suffix(length: length)
        default:
            throw HTTPError(.invalidRange, "Range \"\(value.prefix(100))\" is malformed")
        }
    }

    /// The bytes this range selects from a representation of `size` bytes; nil when it selects
    /// none (a `416`).
    public func resolve(size: Int64) -> Range<Int64>? {
        switch self {
        case .closed(let first, let last):
            return first < size ? first..<(min(last, size - 1) + 1) : nil
        case .from(let first):
            return first < size ? first..<size : nil
        case .suffix(let length):
            return length > 0 && size > 0 ? max(0, size - length)..<size : nil
        }
    }

    /// The header value, such as `bytes=100-`.
    public var headerValue: String {
        switch self {
        case .closed(let first, let last): "bytes=\(first)-\(last)"
        case .from(let first): "bytes=\(first)-"
        case .suffix(let length): "bytes=-\(length)"
        }
    }
}

/// A `Content-Range` response header (RFC 9110 §14.4).
public enum HTTPContentRange: Hashable, Sendable {
    /// `bytes A-B/SIZE` (SIZE nil for `*`): the body holds bytes A through B.
    case bytes(first: Int64, last: Int64, size: Int64?)
    /// `bytes */SIZE`: no range was satisfiable (with `416`).
    case unsatisfied(size: Int64)

    /// The value for a body holding `range` of a `size`-byte representation.
    public init(range: Range<Int64>, size: Int64) {
        self = .bytes(first: range.lowerBound, last: range.upperBound - 1, size: size)
    }

    /// Parses a value; throws `HTTPError.invalidContentRange`.
    public init(parsing value: String) throws {
        let text = Substring(value).trimmingSpaces
        let invalid = HTTPError(.invalidContentRange, "Content-Range \"\(value.prefix(100))\" is malformed")
        guard text.hasPrefix("bytes "), let slash = text.firstIndex(of: "/") else { throw invalid }
        let spec = text[text.index(text.startIndex, offsetBy: 6)..<slash]
        let sizeText = text[text.index(after: slash)...]
        if spec == "*" {
            guard let size = HTTPDecimal.parse(sizeText) else { throw invalid }
            self = .unsatisfied(size: size)
            return
        }
        let size: Int64?
        if sizeText == "*" { size = nil } else {
            guard let value = HTTPDecimal.parse(sizeText) else { throw invalid }
            size = value
        }
        guard let dash = spec.firstIndex(of: "-"), let first = HTTPDecimal.parse(spec[..<dash]),
            let last = HTTPDecimal.parse(spec[spec.index(after: dash)...]), last >= first,
            size.map({ last < $0 }) ?? true
        else { throw invalid }
        self = .bytes(first: first, last: last, size: size)
    }

    /// The header value, such as `bytes 0-99/1000`.
    public var headerValue: String {
        switch self {
        case .bytes(let first, let last, let size): "bytes \(first)-\(last)/\(size.map(String.init) ?? "*")"
        case .unsatisfied(let size): "bytes */\(size)"
        }
    }
}
