import AIBuds
import Foundation

/// What `changed` reports: the current generation and the wire types whose lists changed.
struct MediaChange: Sendable, Hashable {
    /// The current list generation.
    var generation: UInt64
    /// The wire `MediaFileType` raw values whose lists changed.
    var types: [Int]
}

/// The facade's one dependency on a device: its identity, its operation mask, and the media and
/// file calls the facade makes. Every call throws a `TSError` with a TopStep code.
protocol MediaDeviceChannel: Sendable {
    /// A stable identity of the device (its UUID), to bind identifiers to it.
    var deviceIdentity: String { get }
    /// Whether the device is connected and ready; calls fail with `notConnected` otherwise.
    var isConnected: Bool { get }
    /// The operations the device supports for `type`.
    func supportedOperations(for type: TSMediaFileType) -> TSMediaFileOperation
    /// Lists every file of a wire type, with the generation of the list.
    func list(wireType: Int) async throws(TSError) -> DeviceMediaListing
    /// Long-polls the media group: answers when the generation differs from `since`, or after
    /// `waitMilliseconds` with the current generation.
    func changed(since: UInt64, waitMilliseconds: UInt32) async throws(TSError) -> MediaChange
    /// Deletes a file by name if the list generation is still `generation`; returns the new one.
    func delete(name: String, generation: UInt64) async throws(TSError) -> UInt64
    /// Deletes every file of a wire type; returns the new generation.
    func deleteAll(wireType: Int) async throws(TSError) -> UInt64
    /// The device's SHA-256 of a file; nil when the device cannot hash.
    func sha256(name: String) async throws(TSError) -> [UInt8]?
    /// Downloads a file from `offset` to its end, writing into `file` from `offset` on; reports
    /// the bytes on file and the total size. A download from offset 0 is checked against the
    /// device's SHA-256 (`dataFormatError` on a mismatch).
    func download(
        name: String, into file: FileHandle, from offset: UInt64,
        progress: @escaping @Sendable (_ done: UInt64, _ total: UInt64) -> Void
    ) async throws(TSError) -> MediaDownloadResult
}

/// What one channel download did.
struct MediaDownloadResult: Sendable, Hashable {
    /// The file size the device reported.
    var size: UInt64
    /// Whether the whole file (not only a resumed tail) matched the device's SHA-256.
    var verifiedWhole: Bool
}
