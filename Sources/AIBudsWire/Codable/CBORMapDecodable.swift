import Foundation

/// A message that reads itself straight from a decoded CBOR item, without `Decodable`'s
/// containers: for responses with thousands of entries (a Media list page), where the generic
/// path costs several microseconds per entry. It accepts what its `Decodable` conformance
/// accepts: unknown keys are ignored, a missing or mistyped field is an error.
public protocol CBORMapDecodable {
    /// Reads the message from `item`.
    init(cbor item: CBOR) throws(CBORError)
}

extension MediaListResponse: CBORMapDecodable {
    /// Reads a Media `list` response from its CBOR map.
    public init(cbor item: CBOR) throws(CBORError) {
        guard case .map(let map) = item else { throw Self.malformed("a Media list response is not a map") }
        var generation: UInt64?
        var total: UInt64?
        var files: [MediaFileEntry]?
        for (key, value) in map {
            guard case .text(let name) = key else { continue }
            switch name {
            case "generation": generation = value.uint64
            case "total": total = value.uint64
            case "files":
                guard case .array(let items) = value else { throw Self.malformed("files is not an array") }
                var entries: [MediaFileEntry] = []
                entries.reserveCapacity(items.count)
                for entry in items { entries.append(try MediaFileEntry(cbor: entry)) }
                files = entries
            default: continue
            }
        }
        guard let generation, let total, let files else {
            throw Self.malformed("a Media list response lacks generation, total or files")
        }
        self.init(generation: generation, total: total, files: files)
    }

    static func malformed(_ message: String) -> CBORError { CBORError(.unexpectedType, offset: 0, message) }
}

extension MediaFileEntry: CBORMapDecodable {
    /// Reads one Media list entry from its CBOR map.
    public init(cbor item: CBOR) throws(CBORError) {
        guard case .map(let map) = item else { throw MediaListResponse.malformed("a Media list entry is not a map") }
        var id: String?
        var name: String?
        var type: Int?
        var size: UInt64?
        var sixaxis: Bool?
        var sha256: Data?
        for (key, value) in map {
            guard case .text(let field) = key else { continue }
            switch field {
            case "id": id = value.string
            case "name": name = value.string
            case "type": type = value.int
            case "size": size = value.uint64
            case "sixaxis":
                guard case .bool(let flag) = value else { throw MediaListResponse.malformed("sixaxis is not a bool") }
                sixaxis = flag
            case "sha256":
                switch value {
                case .bytes(let digest): sha256 = digest
                case .null: sha256 = nil
                default: throw MediaListResponse.malformed("sha256 is not a byte string")
                }
            default: continue
            }
        }
        guard let id, let name, let type, let size, let sixaxis else {
            throw MediaListResponse.malformed("a Media list entry lacks id, name, type, size or sixaxis")
        }
        self.init(id: id, name: name, type: type, size: size, sixaxis: sixaxis, sha256: sha256)
    }
}
