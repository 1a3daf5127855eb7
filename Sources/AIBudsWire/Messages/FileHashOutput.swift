import Foundation

/// The `output` of a File hash response: bytes for `sha256`, an unsigned integer for `crc32`.
///
/// Encodes as a CBOR byte string or integer respectively, and decodes from either.
public enum FileHashOutput: Codable, Sendable, Equatable {
    /// A digest as bytes (`sha256`: 32 bytes).
    case bytes(Data)
    /// A checksum as an unsigned integer (`crc32`).
    case uint(UInt64)

    /// The digest bytes, when this is `.bytes`.
    public var data: Data? {
        if case .bytes(let data) = self { return data }
        return nil
    }

    /// The checksum, when this is `.uint`.
    public var uint64: UInt64? {
        if case .uint(let value) = self { return value }
        return nil
    }

    /// Decodes a byte string or an unsigned integer.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let data = try? container.decode(Data.self) {
            self = .bytes(data)
        } else if let value = try? container.decode(UInt64.self) {
            self = .uint(value)
        } else {
            throw DecodingError.typeMismatch(FileHashOutput.self, .init(
                codingPath: decoder.codingPath,
                debugDescription: "\(decoder.codingPath.pathDescription): expected a byte string or an unsigned integer"))
        }
    }

    /// Encodes the bytes or the integer.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .bytes(let data): try container.encode(data)
        case .uint(let value): try container.encode(value)
        }
    }
}
