import AIBudsFoundation
import Foundation

/// A media channel that also watches the media list and downloads files over the control link
/// itself (TopStepComKit's `TSMediaFile`): the Media group's `changed` long-poll and the File
/// group's download into a file from an offset (docs/protocol.md §3). The SMP device classes adopt
/// it; failures are `AIBudsError`s, as for every ``MediaControlChannel``.
public protocol MediaFileTransferChannel: MediaControlChannel {
    /// The SDK's identifier of the device; what a caller binds its file identifiers to.
    var uuid: UUID { get }
    /// Whether the device is connected and accepts commands; calls fail with `deviceNotConnected`
    /// otherwise.
    var isConnectedAndReady: Bool { get }
    /// The capabilities the device reported in its Device `info` (`mediaFile` for this channel).
    var capabilities: Set<DeviceCapability> { get }

    /// Long-polls the media list: answers as soon as the generation differs from `since`, or after
    /// `waitMilliseconds` (0: at once) with the current generation.
    func mediaListChange(since: UInt64, waitMilliseconds: UInt32) async throws -> MediaListChange
    /// Downloads the device file `name` from `offset` to its end, writing into `file` from `offset`
    /// on, and reports the bytes on file and the total size. A download from offset 0 is checked
    /// against the device's SHA-256 (`importFilesFailedDueToIntegrityMismatch` on a mismatch).
    func downloadMediaFile(
        named name: String, into file: FileHandle, from offset: UInt64,
        progress: @escaping @Sendable (_ done: UInt64, _ total: UInt64) -> Void
    ) async throws -> MediaFileDownload
}

/// What ``MediaFileTransferChannel/mediaListChange(since:waitMilliseconds:)`` reports.
public struct MediaListChange: Sendable, Hashable {
    /// The device's list generation when it answered; the next long-poll passes it as `since`.
    public var generation: UInt64
    /// The types whose lists changed; empty when the device did not say.
    public var types: [MediaFileType]

    /// Creates a change report.
    public init(generation: UInt64, types: [MediaFileType]) {
        self.generation = generation
        self.types = types
    }
}

/// What one ``MediaFileTransferChannel/downloadMediaFile(named:into:from:progress:)`` did.
public struct MediaFileDownload: Sendable, Hashable {
    /// The file size the device reported.
    public var size: UInt64
    /// Whether the whole file (not only a resumed tail) matched the device's SHA-256.
    public var verifiedWhole: Bool

    /// Creates a download report.
    public init(size: UInt64, verifiedWhole: Bool) {
        self.size = size
        self.verifiedWhole = verifiedWhole
    }
}
