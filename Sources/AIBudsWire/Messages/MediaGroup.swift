import Foundation

// Messages of the project Media group (65). See docs/protocol.md.

/// Media list: one page of the files, ordered by name (Unicode scalar order).
public struct MediaListRequest: SMPRequest, Equatable {
    /// The answer.
    public typealias Response = MediaListResponse
    /// The Media group.
    public static let group = SMPGroupID.media
    /// Command 0.
    public static let command: UInt8 = 0
    /// A read.
    public static let operation = SMPOperation.read

    /// Only files of this `MediaFileType` raw value (image 1, audio 2, video 3).
    public var type: Int?
    /// The index of the first file of the page (default 0).
    public var off: UInt64?
    /// The page size (default 64, capped at 256).
    public var limit: UInt64?
    /// The largest response packet the client takes, in bytes (docs/protocol.md §3): the device
    /// answers with packets up to this size when its own buffer allows, else up to its MTU.
    public var mtu: UInt64?

    /// Creates the message.
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

    /// Creates the message.
    public init(generation: UInt64, total: UInt64, files: [MediaFileEntry]) {
        self.generation = generation
        self.total = total
        self.files = files
    }
}

/// Media delete: deletes one file, optionally only if the list generation is still current.
public struct MediaDeleteRequest: SMPRequest, Equatable {
    /// The answer.
    public typealias Response = MediaDeleteResponse
    /// The Media group.
    public static let group = SMPGroupID.media
    /// Command 1.
    public static let command: UInt8 = 1
    /// A write.
    public static let operation = SMPOperation.write

    /// The device file name.
    public var name: String
    /// The generation the client saw; a stale one fails with rc 3 and deletes nothing.
    public var generation: UInt64?

    /// Creates the message.
    public init(name: String, generation: UInt64? = nil) {
        self.name = name
        self.generation = generation
    }
}

/// The answer to ``MediaDeleteRequest``.
public struct MediaDeleteResponse: Codable, Sendable, Equatable {
    /// The generation after the deletion.
    public var generation: UInt64

    /// Creates the message.
    public init(generation: UInt64) {
        self.generation = generation
    }
}

/// Media delete all, optionally of one type.
public struct MediaDeleteAllRequest: SMPRequest, Equatable {
    /// The answer.
    public typealias Response = MediaDeleteAllResponse
    /// The Media group.
    public static let group = SMPGroupID.media
    /// Command 2.
    public static let command: UInt8 = 2
    /// A write.
    public static let operation = SMPOperation.write

    /// Only files of this `MediaFileType` raw value.
    public var type: Int?

    /// Creates the message.
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

    /// Creates the message.
    public init(generation: UInt64, deleted: UInt64) {
        self.generation = generation
        self.deleted = deleted
    }
}

/// Media changed (long-poll): answers at once when the generation differs from `since`, else waits up to `wait_ms`.
public struct MediaChangedRequest: SMPRequest, Equatable {
    /// The answer.
    public typealias Response = MediaChangedResponse
    /// The Media group.
    public static let group = SMPGroupID.media
    /// Command 3.
    public static let command: UInt8 = 3
    /// A read.
    public static let operation = SMPOperation.read

    /// The generation the client knows.
    public var since: UInt64
    /// How long the device may hold the request, in milliseconds (at most 30,000).
    public var waitMs: UInt64

    /// The wire names of the fields (docs/protocol.md).
    enum CodingKeys: String, CodingKey {
        case since
        case waitMs = "wait_ms"
    }

    /// Creates the message.
    public init(since: UInt64, waitMs: UInt64) {
        self.since = since
        self.waitMs = waitMs
    }
}

/// The answer to ``MediaChangedRequest``.
public struct MediaChangedResponse: Codable, Sendable, Equatable {
    /// The current generation.
    public var generation: UInt64
    /// The `MediaFileType` raw values whose lists changed since `since`.
    public var types: [Int]

    /// Creates the message.
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

    /// Creates the message.
    public init(id: String, name: String, type: Int, size: UInt64, sixaxis: Bool, sha256: Data? = nil) {
        self.id = id
        self.name = name
        self.type = type
        self.size = size
        self.sixaxis = sixaxis
        self.sha256 = sha256
    }
}
