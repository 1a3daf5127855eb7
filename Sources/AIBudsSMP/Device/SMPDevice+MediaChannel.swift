import AIBuds
import AIBudsFoundation
import AIBudsSMPClient
import Foundation

// Every SMP device is a media channel (Media group 65 and File group 8 of docs/protocol.md): each
// call runs the requests of `SMPMediaChannel` on the current session as one of the device's calls
// in flight, so a disconnection ends it. Glasses also import over the hotspot (SMPGlassesDevice).

extension SMPDevice: MediaFileTransferChannel {
    /// The SMP client of the current connection; `nil` unless the device is ready.
    public var smpClient: SMPClient? {
        try? readySession(SMPDeviceSession.self).client
    }

    /// The serial number when known, else the SDK's identifier of the device.
    public var mediaImportDeviceID: String { deviceSerialNum ?? uuid.uuidString }

    /// Lists every media file (of `type`, or all types), across pages at one generation.
    public func listMediaFiles(type: MediaFileType?) async throws -> DeviceMediaListing {
        try await onMediaChannel { try await $0.listMediaFiles(type: type) }
    }

    /// Deletes one file by name; with `generation`, only if the list is still at it.
    public func deleteMediaFile(named name: String, generation: UInt64?) async throws -> UInt64 {
        try await onMediaChannel { try await $0.deleteMediaFile(named: name, generation: generation) }
    }

    /// Empties the device's media store (only files of `type` when given) on the current
    /// connection; returns the new list generation and how many files went.
    ///
    /// Every client's delegate hears `didReceiveFileDeletingProgressEvent` `completed` from the
    /// device's `deleteProgress` event; a deletion that fails here is `unexpectedExit` for this one.
    public func deleteAllMediaFiles(type: MediaFileType?) async throws -> (generation: UInt64, deleted: Int) {
        do {
            return try await onMediaChannel { try await $0.deleteAllMediaFiles(type: type) }
        } catch {
            apply([.fileDeletingProgress(.unexpectedExit)], notify: true)
            throw error
        }
    }

    /// The device's SHA-256 of one file; `nil` when the device cannot hash. The device may take
    /// four command timeouts for it.
    public func mediaFileSHA256(named name: String) async throws -> [UInt8]? {
        try await onMediaChannel { try await $0.mediaFileSHA256(named: name) }
    }

    /// Long-polls the Media group's `changed`.
    public func mediaListChange(since: UInt64, waitMilliseconds: UInt32) async throws -> MediaListChange {
        try await onMediaChannel { try await $0.mediaListChange(since: since, waitMilliseconds: waitMilliseconds) }
    }

    /// Downloads a device file over the control link (File group, pipelined).
    public func downloadMediaFile(
        named name: String, into file: FileHandle, from offset: UInt64,
        progress: @escaping @Sendable (UInt64, UInt64) -> Void
    ) async throws -> MediaFileDownload {
        try await onMediaChannel { try await $0.downloadMediaFile(named: name, into: file, from: offset, progress: progress) }
    }

    /// Runs `body` on the media channel of the ready device's session. The Media group's requests
    /// need the `mediaImport` or the `mediaFile` capability; a device with neither fails as one
    /// without `mediaImport`.
    private func onMediaChannel<Value: Sendable>(
        _ body: @escaping @Sendable (SMPMediaChannel) async throws -> Value
    ) async throws -> Value {
        let reported = capabilities
        let needed: DeviceCapability = reported.contains(.mediaImport) || !reported.contains(.mediaFile) ? .mediaImport : .mediaFile
        let hashTimeout = SMPDeviceSession.commandTimeout * 4
        return try await run(needed) { [self] session in
            try await body(SMPMediaChannel(
                client: session.client, uuid: uuid, capabilities: reported, hashTimeout: hashTimeout,
                isConnected: { [weak self] in self?.isConnectedAndReady ?? false }))
        }
    }
}
