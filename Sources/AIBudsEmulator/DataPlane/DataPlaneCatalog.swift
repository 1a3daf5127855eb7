import AIBudsFoundation
import AIBudsHTTPWire

/// One file the data plane can serve: its identity, size, validator and where its bytes are.
public struct DataPlaneFile: Hashable, Sendable {
    /// The device-stable opaque id of the file.
    public var id: String
    /// The size in bytes; the file at `path` must have exactly this size.
    public var size: Int64
    /// The strong entity tag, quotes included, such as `"a1-1024-7"`.
    public var etag: String
    /// The local file holding the bytes.
    public var path: String

    /// Creates a file entry.
    public init(id: String, size: Int64, etag: String, path: String) {
        self.id = id
        self.size = size
        self.etag = etag
        self.path = path
    }

    /// The entity tag of docs/protocol.md §4: `"<id>-<size>-<generation of last change>"`, with
    /// the id percent-encoded so that any id makes a valid tag.
    public static func etag(id: String, size: Int64, generation: UInt64) -> String {
        "\"\(PercentEncoding.encodeUnreserved(id))-\(size)-\(generation)\""
    }
}

/// Where the data plane finds files by device file name; the emulator's media store conforms.
public protocol DataPlaneCatalog: Sendable {
    /// The file with this device name, or nil when there is none (a `404`).
    func file(named name: String) -> DataPlaneFile?
}
