import AIBudsCBOR
import Foundation

/// A response that can read itself straight from its payload bytes when they are in its plain
/// form, much faster than through the generic `CBOR` tree; `nil` for anything else, which the
/// generic path then decodes and judges. `SMPClient` uses it for the responses of requests whose
/// `Response` conforms.
public protocol PlainPayloadDecodable: Sendable {
    /// The response read from `payload`, or nil when it is not in the plain form.
    static func decode(plainPayload payload: Data) -> Self?
}

extension MediaListResponse: PlainPayloadDecodable {
    /// ``plainPage(from:)``.
    public static func decode(plainPayload payload: Data) -> MediaListResponse? { plainPage(from: payload) }


    /// The page read straight from its payload bytes, when they are a plain page: one map of
    /// `generation`, `total` and `files` (each file a map of `id`, `name`, `type`, `size`,
    /// `sixaxis` and optional `sha256`), definite lengths, no other keys, no key twice, nothing
    /// after it. `nil` for anything else (an error answer with `rc` or `err`, unknown keys,
    /// indefinite lengths, a missing or mistyped field), which the generic path then decodes and
    /// judges exactly as before.
    ///
    /// A device's list page holds hundreds of entries: building the generic `CBOR` tree of one
    /// (a dictionary per entry) cost about 25,000 instructions per entry, this about a tenth.
    public static func plainPage(from payload: Data) -> MediaListResponse? {
        // Every item takes a byte at least: no more bytes than the generic decoder's item limit,
        // so never a page it would refuse for its size (an SMP payload is at most 64 KiB anyway).
        guard payload.count <= CBORLimits.default.maxItems else { return nil }
        return payload.withUnsafeBytes { bytes in
            var reader = PlainCBORReader(bytes: bytes)
            guard let page = reader.page(), reader.isAtEnd else { return nil }
            return page
        }
    }
}

/// A forward-only reader of the plain CBOR a list page is made of; every method returns `nil`
/// (and the caller gives up) on anything it does not expect.
private struct PlainCBORReader {
    let bytes: UnsafeRawBufferPointer
    var offset = 0

    var isAtEnd: Bool { offset == bytes.count }

    mutating func page() -> MediaListResponse? {
        guard let count = head(major: 5) else { return nil }
        var generation: UInt64?
        var total: UInt64?
        var files: [MediaFileEntry]?
        for _ in 0..<count {
            guard let key = text() else { return nil }
            // rc, err, an unknown key, one seen before or a value of another kind: the generic path.
            switch key {
            case "generation" where generation == nil:
                guard let value = unsigned() else { return nil }
                generation = value
            case "total" where total == nil:
                guard let value = unsigned() else { return nil }
                total = value
            case "files" where files == nil:
                guard let value = entries() else { return nil }
                files = value
            default:
                return nil
            }
        }
        guard let generation, let total, let files else { return nil }
        return MediaListResponse(generation: generation, total: total, files: files)
    }

    private mutating func entries() -> [MediaFileEntry]? {
        guard let count = head(major: 4), count <= UInt64(bytes.count - offset) else { return nil }
        var entries: [MediaFileEntry] = []
        entries.reserveCapacity(Int(count))
        for _ in 0..<count {
            guard let entry = entry() else { return nil }
            entries.append(entry)
        }
        return entries
    }

    private mutating func entry() -> MediaFileEntry? {
        guard let count = head(major: 5) else { return nil }
        var id: String?
        var name: String?
        var type: Int?
        var size: UInt64?
        var sixaxis: Bool?
        var sha256: Data??
        for _ in 0..<count {
            // As for the page: anything unexpected goes to the generic path.
            guard let key = keyBytes().flatMap(Key.init) else { return nil }
            switch key {
            case .id where id == nil:
                guard let value = text() else { return nil }
                id = value
            case .name where name == nil:
                guard let value = text() else { return nil }
                name = value
            case .type where type == nil:
                guard let value = unsigned().flatMap({ Int(exactly: $0) }) else { return nil }
                type = value
            case .size where size == nil:
                guard let value = unsigned() else { return nil }
                size = value
            case .sixaxis where sixaxis == nil:
                guard let value = bool() else { return nil }
                sixaxis = value
            case .sha256 where sha256 == nil:
                guard let value = bytesOrNull() else { return nil }
                sha256 = value
            default:
                return nil
            }
        }
        guard let id, let name, let type, let size, let sixaxis else { return nil }
        return MediaFileEntry(id: id, name: name, type: type, size: size, sixaxis: sixaxis, sha256: sha256 ?? nil)
    }

    /// The keys of a list entry.
    private enum Key {
        case id, name, type, size, sixaxis, sha256

        init?(_ bytes: UnsafeRawBufferPointer) {
            switch bytes.count {
            case 2 where bytes.elementsEqual("id".utf8): self = .id
            case 4 where bytes.elementsEqual("name".utf8): self = .name
            case 4 where bytes.elementsEqual("type".utf8): self = .type
            case 4 where bytes.elementsEqual("size".utf8): self = .size
            case 7 where bytes.elementsEqual("sixaxis".utf8): self = .sixaxis
            case 6 where bytes.elementsEqual("sha256".utf8): self = .sha256
            default: return nil
            }
        }
    }

    /// The argument of a head of `major` type with a definite argument, else nil.
    private mutating func head(major wanted: UInt8) -> UInt64? {
        guard offset < bytes.count else { return nil }
        let initial = bytes[offset]
        guard initial >> 5 == wanted else { return nil }
        let info = initial & 0x1F
        switch info {
        case 0..<24:
            offset += 1
            return UInt64(info)
        case 24...27:
            let size = 1 << Int(info - 24)
            guard bytes.count - offset - 1 >= size else { return nil }
            var value: UInt64 = 0
            for index in 1...size { value = value << 8 | UInt64(bytes[offset + index]) }
            offset += 1 + size
            return value
        default:
            return nil
        }
    }

    private mutating func unsigned() -> UInt64? { head(major: 0) }

    /// A definite-length string of `major` type (2 bytes, 3 text), as bytes within the input.
    private mutating func string(major: UInt8) -> UnsafeRawBufferPointer? {
        guard let length = head(major: major), length <= UInt64(bytes.count - offset) else { return nil }
        let start = offset
        offset += Int(length)
        return UnsafeRawBufferPointer(rebasing: bytes[start..<offset])
    }

    /// A text key's bytes (a key is plain ASCII; its UTF-8 is checked by matching it).
    private mutating func keyBytes() -> UnsafeRawBufferPointer? { string(major: 3) }

    private mutating func text() -> String? {
        string(major: 3).flatMap { String(validating: $0, as: UTF8.self) }
    }

    private mutating func bool() -> Bool? {
        guard offset < bytes.count else { return nil }
        switch bytes[offset] {
        case 0xF4: offset += 1; return false
        case 0xF5: offset += 1; return true
        default: return nil
        }
    }

    /// A byte string, or `null` (read as `.some(nil)`); nil for anything else.
    private mutating func bytesOrNull() -> Data?? {
        if offset < bytes.count, bytes[offset] == 0xF6 {
            offset += 1
            return .some(nil)
        }
        return string(major: 2).map { .some(Data($0)) }
    }
}
