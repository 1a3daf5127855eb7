import AIBudsHTTPWire

/// One media file on the device, as the device listed it.
///
/// Only the SDK creates these (from the device's media list); apps select from the models they were
/// given and pass them back unchanged. `fileId` and `generation` let the SDK detect a model that no
/// longer matches the device's list.
public final class MediaFileInfoModel: Sendable, Codable, Hashable, CustomStringConvertible {
    /// Photo, video or audio, as the device listed the file.
    public let fileType: MediaFileType
    /// The device's file name, exactly as listed (any Unicode, no path).
    public let fileName: String
    /// The root of the device's HTTP data plane, `http://HOST:PORT` (the hotspot state's `base_url`).
    public let baseUrl: String
    /// Whether the file carries six-axis (gyro and accelerometer) data for video stabilization.
    public let containsSixAxisDebounceInfo: Bool
    /// The size in bytes as the device listed it (project addition).
    public let fileSize: UInt64?
    /// The device's opaque, stable identifier of the file (project addition).
    public let fileId: String?
    /// The media-list generation this model came from (project addition).
    public let generation: UInt64?

    /// Creates a model; the SDK does this from the device's media list.
    public init(
        fileType: MediaFileType,
        fileName: String,
        baseUrl: String,
        containsSixAxisDebounceInfo: Bool = false,
        fileSize: UInt64? = nil,
        fileId: String? = nil,
        generation: UInt64? = nil
    ) {
        self.fileType = fileType
        self.fileName = fileName
        self.baseUrl = baseUrl
        self.containsSixAxisDebounceInfo = containsSixAxisDebounceInfo
        self.fileSize = fileSize
        self.fileId = fileId
        self.generation = generation
    }

    /// The file's data-plane URL: `baseUrl` + `/media/` + the percent-encoded file name
    /// (docs/protocol.md §4); empty when `baseUrl` is empty.
    public var fileUrl: String {
        guard !baseUrl.isEmpty else { return "" }
        return HTTPMediaPath.url(baseURL: baseUrl, deviceName: fileName)
    }

    /// A copy of this model with another data-plane root (a new transfer session).
    public func withBaseUrl(_ baseUrl: String) -> MediaFileInfoModel {
        MediaFileInfoModel(
            fileType: fileType, fileName: fileName, baseUrl: baseUrl,
            containsSixAxisDebounceInfo: containsSixAxisDebounceInfo,
            fileSize: fileSize, fileId: fileId, generation: generation)
    }

    /// Models are equal when every field is.
    public static func == (lhs: MediaFileInfoModel, rhs: MediaFileInfoModel) -> Bool {
        lhs.fileType == rhs.fileType && lhs.fileName == rhs.fileName && lhs.baseUrl == rhs.baseUrl
            && lhs.containsSixAxisDebounceInfo == rhs.containsSixAxisDebounceInfo
            && lhs.fileSize == rhs.fileSize && lhs.fileId == rhs.fileId && lhs.generation == rhs.generation
    }

    /// Hashes every field.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(fileType)
        hasher.combine(fileName)
        hasher.combine(baseUrl)
        hasher.combine(containsSixAxisDebounceInfo)
        hasher.combine(fileSize)
        hasher.combine(fileId)
        hasher.combine(generation)
    }

    /// `name (type, size bytes)`.
    public var description: String {
        "\(fileName) (\(fileType), \(fileSize.map { "\($0) bytes" } ?? "size unknown"))"
    }
}
