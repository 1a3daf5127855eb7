import Foundation

/// The completion of an operation without a result: whether it succeeded, and the error when not.
///
/// It runs exactly once, on the main queue.
public typealias TSCompletionBlock = @MainActor @Sendable (_ isSuccess: Bool, _ error: NSError?) -> Void

/// The completion of a list request: the files (empty when there are none), or nil and the error.
///
/// It runs exactly once, on the main queue.
public typealias TSMediaFileListBlock = @MainActor @Sendable (_ files: [TSMediaFileModel]?, _ error: NSError?) -> Void

/// Download progress as a percentage from 0.0 through 100.0 (not a fraction), on the main queue.
public typealias TSMediaFileDownloadProgressBlock = @MainActor @Sendable (_ progress: Double) -> Void

/// The completion of a download: the final local path, or nil and the error.
///
/// It runs exactly once, on the main queue.
public typealias TSMediaFileDownloadCompletionBlock = @MainActor @Sendable (_ localFilePath: String?, _ error: NSError?) -> Void

/// Called on the main queue when the device's list of the given type is no longer valid.
public typealias TSMediaFileListDidChangedBlock = @MainActor @Sendable (_ type: TSMediaFileType) -> Void
