import AIBudsWire
import Foundation

/// One media file on the device, as listed by `fetchMediaFiles(of:completion:)`.
///
/// Download and delete only models that the list returned: the identifier binds the model to the
/// device and to the list it came from, so a made-up or stale model fails with a clear error.
public final class TSMediaFileModel: Sendable, Hashable, CustomStringConvertible {
    /// The provider-owned opaque identifier; pass it back unchanged.
    public let identifier: String
    /// The complete device file name, including its extension.
    public let fileName: String
    /// The TopStep kind of the file (an audio recording); it decides which operations apply.
    public let type: TSMediaFileType
    /// The size in bytes, or nil when the device does not report it.
    public var fileSize: NSNumber? { size.map { NSNumber(value: $0) } }

    /// The size in bytes as a plain integer.
    let size: UInt64?

    /// Creates a model. Apps get models from the list; a model built by hand is rejected by the
    /// operations unless its identifier is one the list returned.
    public init(identifier: String, fileName: String, type: TSMediaFileType, fileSize: NSNumber?) {
        self.identifier = identifier
        self.fileName = fileName
        self.type = type
        self.size = fileSize.map { $0.uint64Value }
    }

    /// Models are equal when all their fields are (names by their exact Unicode scalars).
    public static func == (lhs: TSMediaFileModel, rhs: TSMediaFileModel) -> Bool {
        lhs.identifier == rhs.identifier && MediaFileName.same(lhs.fileName, rhs.fileName) && lhs.type == rhs.type
            && lhs.size == rhs.size
    }

    /// Hashes the identifier.
    public func hash(into hasher: inout Hasher) { hasher.combine(identifier) }

    /// The file name, type and size, for logs.
    public var description: String {
        "\(fileName) (\(type), \(size.map { "\($0) bytes" } ?? "size unknown"))"
    }
}
