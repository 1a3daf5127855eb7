import Foundation

// Messages of the File management group (8), as Zephyr specifies them. See docs/protocol.md.

/// File download: one chunk of a media file, starting at `off`.
public struct FileDownloadRequest: SMPRequest, Equatable {
    /// The device answers `file` with ``FileDownloadResponse``; the client decodes the answer as
    /// this type.
    public typealias Response = FileDownloadResponse

    /// The offset to read from.
    public var off: UInt64
    /// The path, `/media/<device file name>`.
    public var name: String

    /// Creates the request for the chunk of file `name` that starts at byte `off`.
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

    /// Creates the answer carrying the chunk at `off` (and the file's total size `len` when `off`
    /// is 0), as the emulator sends it.
    public init(off: UInt64, data: Data, len: UInt64? = nil) {
        self.off = off
        self.data = data
        self.len = len
    }
}

/// File upload: one chunk of a file; at `off` 0 with `len` it creates (or replaces) the file.
public struct FileUploadRequest: SMPRequest, Equatable {
    /// The device answers `file` with ``FileUploadResponse``; the client decodes the answer as this
    /// type.
    public typealias Response = FileUploadResponse

    /// The offset of `data`.
    public var off: UInt64
    /// The bytes of this chunk.
    public var data: Data
    /// The path, `/media/<device file name>`.
    public var name: String
    /// The total size; required when `off` is 0.
    public var len: UInt64?

    /// Creates the request that writes `data` at byte `off` of file `name`; `len`, the total size,
    /// goes with offset 0.
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

    /// Creates the answer with the next offset the device expects, as the emulator sends it.
    public init(off: UInt64) {
        self.off = off
    }
}

/// File status: the size of a file.
public struct FileStatusRequest: SMPRequest, Equatable {
    /// The device answers `status` with ``FileStatusResponse``; the client decodes the answer as
    /// this type.
    public typealias Response = FileStatusResponse

    /// The path, `/media/<device file name>`.
    public var name: String

    /// Creates the request for the size of file `name`.
    public init(name: String) {
        self.name = name
    }
}

/// The answer to ``FileStatusRequest``.
public struct FileStatusResponse: Codable, Sendable, Equatable {
    /// The file size in bytes.
    public var len: UInt64

    /// Creates the answer with the file size in bytes, as the emulator sends it.
    public init(len: UInt64) {
        self.len = len
    }
}

/// File hash/checksum of a file or a range of it.
public struct FileHashRequest: SMPRequest, Equatable {
    /// The device answers `hash/checksum` with ``FileHashResponse``; the client decodes the answer
    /// as this type.
    public typealias Response = FileHashResponse

    /// The path, `/media/<device file name>`.
    public var name: String
    /// `crc32` (the default) or `sha256`.
    public var type: String?
    /// The first byte to hash (default 0).
    public var off: UInt64?
    /// The number of bytes to hash (default: to the end).
    public var len: UInt64?

    /// Creates the request for the `type` hash (`sha256` or `crc32`) of file `name`, or of its
    /// `len` bytes from `off`.
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

    /// Creates the answer with the hash type, the range it covers and the hash itself, as the
    /// emulator sends it.
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
public typealias FileSupportedHashesRequest = SMPEmptyRequest<SMPCommand.FileSupportedHashes, FileSupportedHashesResponse>

/// The answer to ``FileSupportedHashesRequest``.
public struct FileSupportedHashesResponse: Codable, Sendable, Equatable {
    /// Each hash type by name (`sha256`, `crc32`).
    public var types: [String: FileHashTypeInfo]

    /// Creates the answer mapping each hash type name to its format and size, as the emulator sends
    /// it.
    public init(types: [String: FileHashTypeInfo]) {
        self.types = types
    }
}

/// File close: ends any open upload or download.
public typealias FileCloseRequest = SMPEmptyRequest<SMPCommand.FileClose, FileCloseResponse>

/// The (empty) answer to ``FileCloseRequest``.
public typealias FileCloseResponse = SMPEmptyResponse

/// The description of one hash type in ``FileSupportedHashesResponse``.
public struct FileHashTypeInfo: Codable, Sendable, Equatable {
    /// 0 for an unsigned integer output, 1 for bytes.
    public var format: UInt64
    /// The output size in bytes.
    public var size: UInt64

    /// Creates the description of a hash type: its output `format` (1 bytes, 0 an integer) and
    /// `size` in bytes.
    public init(format: UInt64, size: UInt64) {
        self.format = format
        self.size = size
    }
}
