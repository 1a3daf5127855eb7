import Foundation

// Messages of the File management group (8), as Zephyr specifies them. See docs/protocol.md.

/// File download: one chunk of a media file, starting at `off`.
public struct FileDownloadRequest: SMPRequest, Equatable {
    /// The answer.
    public typealias Response = FileDownloadResponse
    /// The File group.
    public static let group = SMPGroupID.file
    /// Command 0.
    public static let command: UInt8 = 0
    /// A read.
    public static let operation = SMPOperation.read

    /// The offset to read from.
    public var off: UInt64
    /// The path, `/media/<device file name>`.
    public var name: String

    /// Creates the message.
    public init(off: UInt64, name: String) {
        self.off = off
        self.name = name
    }
}

/// The answer to ``FileDownloadRequest``: as many bytes as fit the MTU.
public struct FileDownloadResponse: Codable, Sendable, Equatable {
    /// The offset of `data`.
    public var off: UInt64
    /// The bytes; empty at the end of the file.
    public var data: Data
    /// The total file size; only when `off` is 0.
    public var len: UInt64?

    /// Creates the message.
    public init(off: UInt64, data: Data, len: UInt64? = nil) {
        self.off = off
        self.data = data
        self.len = len
    }
}

/// File upload: one chunk of a file; at `off` 0 with `len` it creates (or replaces) the file.
public struct FileUploadRequest: SMPRequest, Equatable {
    /// The answer.
    public typealias Response = FileUploadResponse
    /// The File group.
    public static let group = SMPGroupID.file
    /// Command 0.
    public static let command: UInt8 = 0
    /// A write.
    public static let operation = SMPOperation.write

    /// The offset of `data`.
    public var off: UInt64
    /// The bytes of this chunk.
    public var data: Data
    /// The path, `/media/<device file name>`.
    public var name: String
    /// The total size; required when `off` is 0.
    public var len: UInt64?

    /// Creates the message.
    public init(off: UInt64, data: Data, name: String, len: UInt64? = nil) {
        self.off = off
        self.data = data
        self.name = name
        self.len = len
    }
}

/// The answer to ``FileUploadRequest``.
public struct FileUploadResponse: Codable, Sendable, Equatable {
    /// The next offset the device expects.
    public var off: UInt64

    /// Creates the message.
    public init(off: UInt64) {
        self.off = off
    }
}

/// File status: the size of a file.
public struct FileStatusRequest: SMPRequest, Equatable {
    /// The answer.
    public typealias Response = FileStatusResponse
    /// The File group.
    public static let group = SMPGroupID.file
    /// Command 1.
    public static let command: UInt8 = 1
    /// A read.
    public static let operation = SMPOperation.read

    /// The path, `/media/<device file name>`.
    public var name: String

    /// Creates the message.
    public init(name: String) {
        self.name = name
    }
}

/// The answer to ``FileStatusRequest``.
public struct FileStatusResponse: Codable, Sendable, Equatable {
    /// The file size in bytes.
    public var len: UInt64

    /// Creates the message.
    public init(len: UInt64) {
        self.len = len
    }
}

/// File hash/checksum of a file or a range of it.
public struct FileHashRequest: SMPRequest, Equatable {
    /// The answer.
    public typealias Response = FileHashResponse
    /// The File group.
    public static let group = SMPGroupID.file
    /// Command 2.
    public static let command: UInt8 = 2
    /// A read.
    public static let operation = SMPOperation.read

    /// The path, `/media/<device file name>`.
    public var name: String
    /// `crc32` (the default) or `sha256`.
    public var type: String?
    /// The first byte to hash (default 0).
    public var off: UInt64?
    /// The number of bytes to hash (default: to the end).
    public var len: UInt64?

    /// Creates the message.
    public init(name: String, type: String? = nil, off: UInt64? = nil, len: UInt64? = nil) {
        self.name = name
        self.type = type
        self.off = off
        self.len = len
    }
}

/// The answer to ``FileHashRequest``.
public struct FileHashResponse: Codable, Sendable, Equatable {
    /// The hash type used.
    public var type: String
    /// The first byte hashed (Zephyr leaves it out when 0; decoding reads an absent `off` as 0).
    public var off: UInt64
    /// The number of bytes hashed.
    public var len: UInt64
    /// 32 bytes for `sha256`, an unsigned integer for `crc32`.
    public var output: FileHashOutput

    /// Creates the message.
    public init(type: String, off: UInt64, len: UInt64, output: FileHashOutput) {
        self.type = type
        self.off = off
        self.len = len
        self.output = output
    }

    /// Decodes the response; an absent `off` is 0.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        type = try container.decode(String.self, forKey: .type)
        off = try container.decodeIfPresent(UInt64.self, forKey: .off) ?? 0
        len = try container.decode(UInt64.self, forKey: .len)
        output = try container.decode(FileHashOutput.self, forKey: .output)
    }

    /// The wire names of the fields (docs/protocol.md).
    enum CodingKeys: String, CodingKey {
        case type, off, len, output
    }
}

/// File supported hashes: the hash types the device offers.
public struct FileSupportedHashesRequest: SMPRequest, Equatable {
    /// The answer.
    public typealias Response = FileSupportedHashesResponse
    /// The File group.
    public static let group = SMPGroupID.file
    /// Command 3.
    public static let command: UInt8 = 3
    /// A read.
    public static let operation = SMPOperation.read

    /// Creates the message.
    public init() {}
}

/// The answer to ``FileSupportedHashesRequest``.
public struct FileSupportedHashesResponse: Codable, Sendable, Equatable {
    /// Each hash type by name (`sha256`, `crc32`).
    public var types: [String: FileHashTypeInfo]

    /// Creates the message.
    public init(types: [String: FileHashTypeInfo]) {
        self.types = types
    }
}

/// File close: ends any open upload or download.
public struct FileCloseRequest: SMPRequest, Equatable {
    /// The answer.
    public typealias Response = FileCloseResponse
    /// The File group.
    public static let group = SMPGroupID.file
    /// Command 4.
    public static let command: UInt8 = 4
    /// A write.
    public static let operation = SMPOperation.write

    /// Creates the message.
    public init() {}
}

/// The (empty) answer to ``FileCloseRequest``.
public typealias FileCloseResponse = SMPEmptyResponse

/// The description of one hash type in ``FileSupportedHashesResponse``.
public struct FileHashTypeInfo: Codable, Sendable, Equatable {
    /// 0 for an unsigned integer output, 1 for bytes.
    public var format: UInt64
    /// The output size in bytes.
    public var size: UInt64

    /// Creates the message.
    public init(format: UInt64, size: UInt64) {
        self.format = format
        self.size = size
    }
}
