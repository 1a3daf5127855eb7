import Foundation

/// The local result of importing one media file.
public final class ImportedMediaFileModel: Sendable, CustomStringConvertible {
    /// The device's model of the file that was imported.
    public let metadata: MediaFileInfoModel
    /// Where the downloaded original is.
    public let localFileURL: URL
    /// Where the stabilized, playable copy is; `nil` unless `stabilizationStatus` is `.stabilized`.
    public let stabilizedFileURL: URL?
    /// What the stabilization phase did with the file.
    public let stabilizationStatus: VideoStabilizationStatus
    /// Why the transfer or the post-processing of this file failed, if it did.
    public let error: NSError?
    /// The SHA-256 of the imported bytes (lower-case hex), checked against the device's when the
    /// import verifies; `nil` when unknown.
    public let sha256: String?
    /// Where the original was stored when the import goes to an object store (`s3://BUCKET/KEY`);
    /// `nil` for a local import.
    public let objectURL: URL?
    /// Where the stabilized copy was stored beside the original in the object store, if any.
    public let stabilizedObjectURL: URL?

    /// Creates a result; the import engine does this.
    public init(
        metadata: MediaFileInfoModel,
        localFileURL: URL,
        stabilizedFileURL: URL? = nil,
        stabilizationStatus: VideoStabilizationStatus = .pending,
        error: NSError? = nil,
        sha256: String? = nil,
        objectURL: URL? = nil,
        stabilizedObjectURL: URL? = nil
    ) {
        self.metadata = metadata
        self.localFileURL = localFileURL
        self.stabilizedFileURL = stabilizedFileURL
        self.stabilizationStatus = stabilizationStatus
        self.error = error
        self.sha256 = sha256
        self.objectURL = objectURL
        self.stabilizedObjectURL = stabilizedObjectURL
    }

    /// The file to play: the stabilized copy when there is one, else the original.
    public var playableFileURL: URL { stabilizedFileURL ?? localFileURL }

    /// A copy with the outcome of the stabilization phase.
    public func withStabilization(
        _ status: VideoStabilizationStatus, stabilizedFileURL: URL? = nil, error: NSError? = nil
    ) -> ImportedMediaFileModel {
        ImportedMediaFileModel(
            metadata: metadata, localFileURL: localFileURL, stabilizedFileURL: stabilizedFileURL,
            stabilizationStatus: status, error: error ?? self.error, sha256: sha256, objectURL: objectURL,
            stabilizedObjectURL: stabilizedObjectURL)
    }

    /// A copy that says where the original (and its stabilized copy) went in an object store.
    public func withObjectURLs(_ original: URL, stabilized: URL?) -> ImportedMediaFileModel {
        ImportedMediaFileModel(
            metadata: metadata, localFileURL: localFileURL, stabilizedFileURL: stabilizedFileURL,
            stabilizationStatus: stabilizationStatus, error: error, sha256: sha256, objectURL: original,
            stabilizedObjectURL: stabilized)
    }

    /// `name -> path [status]`.
    public var description: String {
        "\(metadata.fileName) -> \(playableFileURL.path) [\(stabilizationStatus)]"
    }
}
