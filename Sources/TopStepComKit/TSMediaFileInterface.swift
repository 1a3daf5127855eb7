import Foundation

/// Lists, downloads and deletes a device's typed media files, and reports when a list changes.
///
/// Reach it as `TopStepComKit.sharedInstance.mediaFile`. Every completion runs exactly once, on the
/// main queue, also on failure. Errors are `NSError`s in `TSErrorDomain` with `TSErrorEnum` codes.
public protocol TSMediaFileInterface: AnyObject, Sendable {
    /// The operations the bound device supports for `type`; `none` without a connected device.
    func supportedOperations(for type: TSMediaFileType) -> TSMediaFileOperation

    /// Lists the device's files of `type`: an empty array when there are none, or nil and an error.
    func fetchMediaFiles(of type: TSMediaFileType, completion: TSMediaFileListBlock?)

    /// Downloads a listed file into `localFolderPath` (created when missing) and completes with the
    /// final local path. `progress` is a percentage from 0.0 through 100.0. An existing file is
    /// never replaced: the download takes the next free name (`name (1).ext`).
    func downloadMediaFile(
        _ mediaFile: TSMediaFileModel,
        localFolderPath: String,
        progress: TSMediaFileDownloadProgressBlock?,
        completion: TSMediaFileDownloadCompletionBlock?
    )

    /// Deletes a listed file from the device. Models from the list are stale afterwards.
    func deleteMediaFile(_ mediaFile: TSMediaFileModel, completion: TSCompletionBlock?)

    /// Deletes every file of `type` from the device.
    func deleteAllMediaFiles(of type: TSMediaFileType, completion: TSCompletionBlock?)

    /// Registers the block called when the device's list of a type becomes invalid (a new
    /// recording, a deletion by anyone); fetch the list again then. Pass nil to unregister.
    func registerMediaFileListDidChangedBlock(_ changeBlock: TSMediaFileListDidChangedBlock?)
}
