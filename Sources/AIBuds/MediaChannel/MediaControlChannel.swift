import AIBudsFoundation
import Foundation

/// The media operations of a device's control link: the media list, deletion and the device-side
/// SHA-256. It is the one media channel of the SDK: the import engine's
/// `MediaImportControlChannel` (module AIBudsImport) and TopStepComKit's ``MediaFileTransferChannel`` refine it, and
/// the SMP device classes adopt it over the Media and File groups of docs/protocol.md. Failures are
/// thrown as `AIBudsError`s; a failure the device reported carries its status code
/// (`deviceStatusCode`).
public protocol MediaControlChannel: Sendable {
    /// Lists every media file (of `type`, or all types), across as many pages as it takes.
    func listMediaFiles(type: MediaFileType?) async throws -> DeviceMediaListing
    /// Deletes one file by its device name; with `generation`, only if the list is still at it.
    /// Returns the list generation after the deletion.
    func deleteMediaFile(named name: String, generation: UInt64?) async throws -> UInt64
    /// Deletes every media file (of `type`, or all types); returns the new generation and the count.
    func deleteAllMediaFiles(type: MediaFileType?) async throws -> (generation: UInt64, deleted: Int)
    /// The SHA-256 of one device file as the device computes it; `nil` when the device cannot hash.
    func mediaFileSHA256(named name: String) async throws -> [UInt8]?
}

/// The device's media list at one generation.
public struct DeviceMediaListing: Sendable, Equatable {
    /// The list generation (grows whenever the set of files changes).
    public var generation: UInt64
    /// The files, ordered by name.
    public var files: [DeviceMediaEntry]

    /// Wraps `files`, as the device listed them at list generation `generation`.
    public init(generation: UInt64, files: [DeviceMediaEntry]) {
        self.generation = generation
        self.files = files
    }
}

/// One file in the device's media list.
public struct DeviceMediaEntry: Sendable, Equatable {
    /// The device's stable opaque identifier.
    public var id: String
    /// The device file name.
    public var name: String
    /// The kind of file.
    public var type: MediaFileType
    /// The size in bytes.
    public var size: UInt64
    /// Whether the file carries six-axis data.
    public var hasSixAxisData: Bool
    /// The file's SHA-256 when the device listed it; `nil` when the device must be asked
    /// (``MediaControlChannel/mediaFileSHA256(named:)``).
    public var sha256: [UInt8]?

    /// Describes one listed file: the device's id, name, type, size in bytes, whether six-axis
    /// data comes with it, and its SHA-256 when the device listed one.
    public init(id: String, name: String, type: MediaFileType, size: UInt64, hasSixAxisData: Bool, sha256: [UInt8]? = nil) {
        self.id = id
        self.name = name
        self.type = type
        self.size = size
        self.hasSixAxisData = hasSixAxisData
        self.sha256 = sha256
    }

    /// The model handed to apps, rooted at the data plane `baseUrl`.
    package func model(baseUrl: String, generation: UInt64) -> MediaFileInfoModel {
        MediaFileInfoModel(
            fileType: type, fileName: name, baseUrl: baseUrl, containsSixAxisDebounceInfo: hasSixAxisData,
            fileSize: size, fileId: id, generation: generation)
    }
}
