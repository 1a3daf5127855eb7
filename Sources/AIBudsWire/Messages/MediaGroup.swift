import Foundation

// Messages of the project Media group (65). See docs/protocol.md.

/// Media list: one page of the files, ordered by name (Unicode scalar order).
public struct MediaListRequest: SMPRequest, Equatable {
    /// The device answers `list` with ``MediaListResponse``; the client decodes the answer as this
    /// type.
    public typealias Response = MediaListResponse

    /// Only files of this `MediaFileType` raw value (image 1, audio 2, video 3).
    public var type: Int?
    /// The index of the first file of the page (default 0).
    public var off: UInt64?
    /// The page size (default 64, capped at 256).
    public var limit: UInt64?
    /// The largest response packet the client takes, in bytes (docs/protocol.md §3): the device
    /// answers with packets up to this size when its own buffer allows, else up to its MTU.
    public var mtu: UInt64?

    /// Creates the request for a page of the media list: files of `type` (all when nil), from index
    /// `off`, at most `limit` of them, in response packets of up to `mtu` bytes when the device has
    /// room for them.
    public init(type: Int? = nil, off: UInt64? = nil, limit: UInt64? = nil, mtu: UInt64? = nil) {
        self.type = type
        self.off = off
        self.limit = limit
        self.mtu = mtu
    }
}

/// The answer to ``MediaListRequest``.
public struct MediaListResponse: Codable, Sendable, Equatable {
    /// The list generation this page belongs to.
    public var generation: UInt64
    /// The number of files that match the filter.
    public var total: UInt64
    /// The files of this page.
    public var files: [MediaFileEntry]

    /// Creates a page of the media list at list generation `generation`, of `total` files in all,
    /// as the emulator sends it.
    public init(generation: UInt64, total: UInt64, files: [MediaFileEntry]) {
        self.generation = generation
        self.total = total
        self.files = files
    }
}

/// Media delete: deletes one file, optionally only if the list generation is still current.
public struct MediaDeleteRequest: SMPRequest, Equatable {
    /// The device answers `delete` with ``MediaDeleteResponse``; the client decodes the answer as
    /// this type.
    public typealias Response = MediaDeleteResponse

    /// The device file name.
    public var name: String
    /// The generation the client saw; a stale one fails with rc 3 and deletes nothing.
    public var generation: UInt64?

    /// Creates the request that deletes file `name`, only while the list generation is still
    /// `generation` when one is given.
    public init(name: String, generation: UInt64? = nil) {
        self.name = name
        self.generation = generation
    }
}

/// The answer to ``MediaDeleteRequest``.
public struct MediaDeleteResponse: Codable, Sendable, Equatable {
    /// The generation after the deletion.
    public var generation: UInt64

    /// Creates the answer with the list generation after the deletion, as the emulator sends it.
    public init(generation: UInt64) {
        self.generation = generation
    }
}

/// Media delete all, optionally of one type.
public struct MediaDeleteAllRequest: SMPRequest, Equatable {
    /// The device answers `delete all` with ``MediaDeleteAllResponse``; the client decodes the
    /// answer as this type.
    public typealias Response = MediaDeleteAllResponse

    /// Only files of this `MediaFileType` raw value.
    public var type: Int?

    /// Creates the request that deletes every media file of `type` (a `MediaFileType` raw value),
    /// or every file when nil.
    public init(type: Int? = nil) {
        self.type = type
    }
}

/// The answer to ``MediaDeleteAllRequest``.
public struct MediaDeleteAllResponse: Codable, Sendable, Equatable {
    /// The generation after the deletion.
    public var generation: UInt64
    /// The number of files deleted.
    public var deleted: UInt64

    /// Creates the answer with the new list generation and how many files were deleted, as the
    /// emulator sends it.
    public init(generation: UInt64, deleted: UInt64) {
        self.generation = generation
        self.deleted = deleted
    }
}

/// Media changed (long-poll): answers at once when the generation differs from `since`, else waits up to `wait_ms`.
public typealias MediaChangedRequest = SMPLongPollRequest<SMPCommand.MediaChanged, MediaChangedResponse>

/// The answer to ``MediaChangedRequest``.
public struct MediaChangedResponse: Codable, Sendable, Equatable {
    /// The media list generation now; it differs from `since` unless the wait ran out.
    public var generation: UInt64
    /// The `MediaFileType` raw values whose lists changed since `since`.
    public var types: [Int]

    /// Creates the answer with the current list generation and the media types that changed, as the
    /// emulator sends it.
    public init(generation: UInt64, types: [Int]) {
        self.generation = generation
        self.types = types
    }
}

/// One file in ``MediaListResponse``.
public struct MediaFileEntry: Codable, Sendable, Equatable {
    /// The device-stable opaque id.
    public var id: String
    /// The device file name.
    public var name: String
    /// The `MediaFileType` raw value (image 1, audio 2, video 3).
    public var type: Int
    /// The size in bytes.
    public var size: UInt64
    /// Whether six-axis (gyro and accelerometer) data comes with the file.
    public var sixaxis: Bool
    /// The file's SHA-256 (32 bytes), when the device knows it; absent otherwise (a client then
    /// asks the File group's `hash`).
    public var sha256: Data?

    /// Creates a media list entry: the file's id, name, `MediaFileType` raw value, size, whether it
    /// has six-axis data, and its SHA-256 when known.
    public init(id: String, name: String, type: Int, size: UInt64, sixaxis: Bool, sha256: Data? = nil) {
        self.id = id
        self.name = name
        self.type = type
        self.size = size
        self.sixaxis = sixaxis
        self.sha256 = sha256
    }
}
