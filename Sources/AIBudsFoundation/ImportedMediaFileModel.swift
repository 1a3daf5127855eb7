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

    /// Creates a result; the import engine does this.
    public init(
        metadata: MediaFileInfoModel,
        localFileURL: URL,
        stabilizedFileURL: URL? = nil,
        stabilizationStatus: VideoStabilizationStatus = .pending,
        error: NSError? = nil
    ) {
        self.metadata = metadata
        self.localFileURL = localFileURL
        self.stabilizedFileURL = stabilizedFileURL
        self.stabilizationStatus = stabilizationStatus
        self.error = error
    }

    /// The file to play: the stabilized copy when there is one, else the original.
    public var playableFileURL: URL { stabilizedFileURL ?? localFileURL }

    /// A copy with the outcome of the stabilization phase.
    public func withStabilization(
        _ status: VideoStabilizationStatus, stabilizedFileURL: URL? = nil, error: NSError? = nil
    ) -> ImportedMediaFileModel {
        ImportedMediaFileModel(
            metadata: metadata, localFileURL: localFileURL, stabilizedFileURL: stabilizedFileURL,
            stabilizationStatus: status, error: error ?? self.error)
    }

    /// `name -> path [status]`.
    public var description: String {
        "\(metadata.fileName) -> \(playableFileURL.path) [\(stabilizationStatus)]"
    }
}
