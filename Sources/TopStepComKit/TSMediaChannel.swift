import AIBuds
import AIBudsFoundation
import Foundation

/// The bound device's media channel in the facade's terms: TopStep's operation mask, wire type
/// numbers, and `TSError`s; each failure of the channel is mapped here, once
/// (`TSError(channelError:subject:connected:)`).
struct TSMediaChannel: Sendable {
    /// The device's media channel.
    let channel: any MediaFileTransferChannel

    /// A stable identity of the device (its UUID), to bind identifiers to it.
    var deviceIdentity: String { channel.uuid.uuidString }

    /// Whether the device is connected and ready; calls fail with `notConnected` otherwise.
    var isConnected: Bool { channel.isConnectedAndReady }

    /// The operations the device supports for `type`: only audio recordings have any.
    func supportedOperations(for type: TSMediaFileType) -> TSMediaFileOperation {
        type == .audioRecording ? Self.operations(capabilities: channel.capabilities) : .none
    }

    /// The audio recording operations of a device with these capabilities (docs/protocol.md §3):
    /// `mediaFile` gives list, download, delete and observeChanges; `mediaFile.deleteAll` adds
    /// delete all. Without `mediaFile`, nothing.
    static func operations(capabilities: Set<DeviceCapability>) -> TSMediaFileOperation {
        guard capabilities.contains(.mediaFile) else { return .none }
        var operations: TSMediaFileOperation = [.list, .download, .delete, .observeChanges]
        if capabilities.contains("mediaFile.deleteAll") { operations.insert(.deleteAll) }
        return operations
    }

    /// Lists every file of a wire type, with the generation of the list.
    func list(wireType: Int) async throws(TSError) -> DeviceMediaListing {
        try await call(about: nil) { try await $0.listMediaFiles(type: MediaFileType(lenientRawValue: wireType)) }
    }

    /// Long-polls the media list: answers when the generation differs from `since`, or after
    /// `waitMilliseconds` with the current generation.
    func changed(since: UInt64, waitMilliseconds: UInt32) async throws(TSError) -> MediaListChange {
        try await call(about: nil) { try await $0.mediaListChange(since: since, waitMilliseconds: waitMilliseconds) }
    }

    /// Deletes a file by name if the list generation is still `generation`; returns the new one.
    func delete(name: String, generation: UInt64) async throws(TSError) -> UInt64 {
        try await call(about: name) { try await $0.deleteMediaFile(named: name, generation: generation) }
    }

    /// Deletes every file of a wire type; returns the new generation.
    func deleteAll(wireType: Int) async throws(TSError) -> UInt64 {
        try await call(about: nil) { try await $0.deleteAllMediaFiles(type: MediaFileType(lenientRawValue: wireType)).generation }
    }

    /// The device's SHA-256 of a file; nil when the device cannot hash.
    func sha256(name: String) async throws(TSError) -> [UInt8]? {
        try await call(about: name) { try await $0.mediaFileSHA256(named: name) }
    }

    /// Downloads a file from `offset` to its end, writing into `file` from `offset` on; reports the
    /// bytes on file and the total size. A download from offset 0 is checked against the device's
    /// SHA-256 (`dataFormatError` on a mismatch).
    func download(
        name: String, into file: FileHandle, from offset: UInt64,
        progress: @escaping @Sendable (_ done: UInt64, _ total: UInt64) -> Void
    ) async throws(TSError) -> MediaFileDownload {
        try await call(about: name) { try await $0.downloadMediaFile(named: name, into: file, from: offset, progress: progress) }
    }

    /// Runs one channel call about the file `name` (nil: about the request), failing fast when the
    /// device is not connected, and maps its failure to a `TSError`.
    private func call<Value>(
        about name: String?, _ body: (any MediaFileTransferChannel) async throws -> Value
    ) async throws(TSError) -> Value {
        guard isConnected else { throw TSError.notConnected }
        do {
            return try await body(channel)
        } catch {
            throw TSError(channelError: error, subject: name.map { "'\($0)'" } ?? "the request", connected: isConnected)
        }
    }
}
