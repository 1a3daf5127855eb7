/// Size limits applied when reading an HTTP message head.
public struct HTTPHeadLimits: Hashable, Sendable {
    /// The most bytes a head may take, its blank line included.
    public var maxHeadBytes: Int
    /// The most header fields a head may carry.
    public var maxHeaderCount: Int

    /// Creates head limits: at most `maxHeadBytes` bytes up to the blank line, and `maxHeaderCount`
    /// header fields.
    public init(maxHeadBytes: Int = 16 * 1024, maxHeaderCount: Int = 100) {
        self.maxHeadBytes = maxHeadBytes
        self.maxHeaderCount = maxHeaderCount
    }

    /// 16 KiB and 100 fields.
    public static let `default` = HTTPHeadLimits()
}

/// Finds and splits HTTP/1.1 message heads (RFC 9112 §2–5), strictly: CRLF line ends only, no
/// folded lines, no whitespace before a colon, no control bytes in values.
public enum HTTPHeadParser {
    /// The length of the head at the start of `bytes`, its blank line (CRLF CRLF) included; nil
    /// when more bytes are needed. Throws `headTooLarge` past the limit, `malformedHeader` on a
    /// bare LF.
    public static func headLength(in bytes: UnsafeRawBufferPointer, limits: HTTPHeadLimits = .default) throws -> Int? {
        let scanned = min(bytes.count, limits.maxHeadBytes)
        var index = 0
        while index < scanned {
            if bytes[index] == 0x0A {
                guard index > 0, bytes[index - 1] == 0x0D else {
                    throw HTTPError(.malformedHeader, "bare LF at byte \(index) of the head")
                }
                if index >= 3, bytes[index - 2] == 0x0A, bytes[index - 3] == 0x0D { return index + 1 }
            }
            index += 1
        }
        if bytes.count >= limits.maxHeadBytes {
            throw HTTPError(.headTooLarge, "message head exceeds \(limits.maxHeadBytes) bytes")
        }
        return nil
    }

    /// Splits a complete head into its start line (the bytes, within `head`) and header fields.
    static func split(_ head: UnsafeRawBufferPointer, limits: HTTPHeadLimits) throws -> (startLine: UnsafeRawBufferPointer, headers: HTTPHeaders) {
        guard head.count <= limits.maxHeadBytes else {
            throw HTTPError(.headTooLarge, "message head exceeds \(limits.maxHeadBytes) bytes")
        }
        var lines: [UnsafeRawBufferPointer] = []
        var lineStart = 0
        var index = 0
        while index < head.count {
            let byte = head[index]
            if byte == 0x0D {
                guard index + 1 < head.count, head[index + 1] == 0x0A else {
                    throw HTTPError(.malformedHeader, "bare CR at byte \(index) of the head")
                }
                lines.append(UnsafeRawBufferPointer(rebasing: head[lineStart..<index]))
                index += 2
                lineStart = index
                continue
            }
            if byte == 0x0A { throw HTTPError(.malformedHeader, "bare LF at byte \(index) of the head") }
            index += 1
        }
        guard lineStart == head.count else { throw HTTPError(.malformedHeader, "the head does not end with CRLF") }
        // The head ends with an empty line; drop it (and require it).
        guard lines.count >= 2, lines.last?.isEmpty == true else {
            throw HTTPError(.malformedStartLine, "the head has no start line or no blank line")
        }
        lines.removeLast()
        guard lines.count - 1 <= limits.maxHeaderCount else {
            throw HTTPError(.tooManyHeaders, "more than \(limits.maxHeaderCount) header fields")
        }
        var headers = HTTPHeaders()
        for line in lines.dropFirst() { try parseField(line, into: &headers) }
        return (lines[0], headers)
    }

    private static func parseField(_ line: UnsafeRawBufferPointer, into headers: inout HTTPHeaders) throws {
        guard let first = line.first else { throw HTTPError(.malformedHeader, "empty header line") }
        guard first != 0x20, first != 0x09 else {
            throw HTTPError(.malformedHeader, "folded header lines (obs-fold) are not accepted")
        }
        guard let colon = line.firstIndex(of: 0x3A), colon > 0 else {
            throw HTTPError(.malformedHeader, "header line without a field name and colon")
        }
        let name = UnsafeRawBufferPointer(rebasing: line[..<colon])
        guard name.allSatisfy(isTokenByte) else {
            throw HTTPError(.malformedHeader, "invalid header field name \"\(latin1(name))\"")
        }
        var valueStart = colon + 1
        var valueEnd = line.count
        while valueStart < valueEnd, line[valueStart] == 0x20 || line[valueStart] == 0x09 { valueStart += 1 }
        while valueEnd > valueStart, line[valueEnd - 1] == 0x20 || line[valueEnd - 1] == 0x09 { valueEnd -= 1 }
        let value = UnsafeRawBufferPointer(rebasing: line[valueStart..<valueEnd])
        guard value.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else {
            throw HTTPError(.malformedHeader, "control bytes in the value of \"\(latin1(name))\"")
        }
        headers.add(name: latin1(name), value: latin1(value))
    }

    /// Whether the byte is a `tchar` of RFC 9110 §5.6.2.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            return true
        default: return false
        }
    }

    /// Decodes bytes as ISO-8859-1, so every byte maps to exactly one character.
    static func latin1(_ bytes: UnsafeRawBufferPointer) -> String {
        if bytes.allSatisfy({ $0 < 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        var scalars = String.UnicodeScalarView()
        for byte in bytes { scalars.append(Unicode.Scalar(byte)) }
        return String(scalars)
    }

    /// The parts of a start line between single spaces: at most `maxParts`, the last one
    /// taking the rest of the line (empty parts kept).
    static func parts(of line: UnsafeRawBufferPointer, maxParts: Int) -> [UnsafeRawBufferPointer] {
        var parts: [UnsafeRawBufferPointer] = []
        var start = 0
        for index in 0..<line.count where line[index] == 0x20 && parts.count < maxParts - 1 {
            parts.append(UnsafeRawBufferPointer(rebasing: line[start..<index]))
            start = index + 1
        }
        parts.append(UnsafeRawBufferPointer(rebasing: line[start...]))
        return parts
    }

    /// Encodes text as ISO-8859-1 for the wire; characters outside it, CR, LF and NUL become `?`.
    static func appendLatin1(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        let copied = text.withUTF8 { utf8 -> Bool in
            // Most heads are plain ASCII without line breaks: their bytes as they are.
            guard utf8.allSatisfy({ $0 < 0x80 && $0 != 0x0D && $0 != 0x0A && $0 != 0 }) else { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if copied { return }
        for scalar in text.unicodeScalars {
            let value = scalar.value
            bytes.append(value < 0x100 && value != 0x0D && value != 0x0A && value != 0 ? UInt8(value) : UInt8(ascii: "?"))
        }
    }

    /// Parses `HTTP/1.0` or `HTTP/1.1`.
    static func parseVersion(_ text: UnsafeRawBufferPointer) throws -> HTTPVersion {
        guard text.count == 8, text.starts(with: "HTTP/".utf8), text[6] == UInt8(ascii: "."),
            (0x30...0x39).contains(text[5]), (0x30...0x39).contains(text[7])
        else {
            throw HTTPError(.malformedStartLine, "invalid HTTP version \"\(latin1(text))\"")
        }
        let digits = [text[5], text[6], text[7]]
        let version = HTTPVersion(major: Int(digits[0] - 0x30), minor: Int(digits[2] - 0x30))
        guard version == .http1_1 || version == .http1_0 else {
            throw HTTPError(.unsupportedVersion, "HTTP version \(version) is not supported")
        }
        return version
    }

    /// Appends the header fields and the blank line that ends a head.
    static func appendFields(_ headers: HTTPHeaders, to bytes: inout [UInt8]) {
        for field in headers {
            appendLatin1(field.name, to: &bytes)
            bytes.append(contentsOf: [UInt8(ascii: ":"), UInt8(ascii: " ")])
            appendLatin1(field.value, to: &bytes)
            bytes.append(contentsOf: [0x0D, 0x0A])
        }
        bytes.append(contentsOf: [0x0D, 0x0A])
    }
}

/// An HTTP version, such as 1.1.
public struct HTTPVersion: Hashable, Sendable, CustomStringConvertible {
    /// The major number.
    public var major: Int
    /// The minor number.
    public var minor: Int

    /// Creates the version a start line spells `HTTP/<major>.<minor>`.
    public init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    /// `HTTP/1.1`, which both ends of the data plane speak.
    public static let http1_1 = HTTPVersion(major: 1, minor: 1)
    /// HTTP/1.0.
    public static let http1_0 = HTTPVersion(major: 1, minor: 0)

    /// `HTTP/1.1`.
    public var description: String { "HTTP/\(major).\(minor)" }

    /// Appends `description`'s bytes.
    func append(to bytes: inout [UInt8]) {
        guard (0...9).contains(major), (0...9).contains(minor) else {
            HTTPHeadParser.appendLatin1(description, to: &bytes)
            return
        }
        bytes.append(contentsOf: "HTTP/".utf8)
        bytes.append(UInt8(ascii: "0") + UInt8(major))
        bytes.append(UInt8(ascii: "."))
        bytes.append(UInt8(ascii: "0") + UInt8(minor))
    }
}
