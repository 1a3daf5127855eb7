import AIBuds
import AIBudsFoundation
import AIBudsSMP
import Foundation

/// The media channel of a bound `DeviceConvertible`: every call goes to the SMP client of the
/// device's current connection, as one of the device's calls in flight, so that a disconnection
/// ends it (with `notConnected`).
struct DeviceMediaChannel: MediaDeviceChannel {
    /// The bound device.
    let device: any DeviceConvertible

    var deviceIdentity: String { device.uuid.uuidString }

    var isConnected: Bool { device.isConnectedAndReady && link != nil }

    func supportedOperations(for type: TSMediaFileType) -> TSMediaFileOperation {
        guard type == .audioRecording, let link = device as? any TSControlLinkDevice else { return .none }
        return SMPMediaChannel.operations(capabilities: link.controlLinkCapabilities)
    }

    func list(wireType: Int) async throws(TSError) -> DeviceMediaListing {
        try await run { channel throws(TSError) in try await channel.list(wireType: wireType) }
    }

    func changed(since: UInt64, waitMilliseconds: UInt32) async throws(TSError) -> MediaChange {
        try await run { channel throws(TSError) in try await channel.changed(since: since, waitMilliseconds: waitMilliseconds) }
    }

    func delete(name: String, generation: UInt64) async throws(TSError) -> UInt64 {
        try await run { channel throws(TSError) in try await channel.delete(name: name, generation: generation) }
    }

    func deleteAll(wireType: Int) async throws(TSError) -> UInt64 {
        try await run { channel throws(TSError) in try await channel.deleteAll(wireType: wireType) }
    }

    func sha256(name: String) async throws(TSError) -> [UInt8]? {
        try await run { channel throws(TSError) in try await channel.sha256(name: name) }
    }

    func download(
        name: String, into file: FileHandle, from offset: UInt64,
        progress: @escaping @Sendable (UInt64, UInt64) -> Void
    ) async throws(TSError) -> MediaDownloadResult {
        try await run { channel throws(TSError) in
            try await channel.download(name: name, into: file, from: offset, progress: progress)
        }
    }

    /// The SMP channel of the current connection, nil when there is none.
    private var link: SMPMediaChannel? {
        guard let device = device as? any TSControlLinkDevice, let client = device.controlLinkClient else { return nil }
        return SMPMediaChannel(client: client, deviceIdentity: device.uuid.uuidString,
                               capabilities: device.controlLinkCapabilities,
                               connected: { [weak device] in device?.isConnectedAndReady ?? false })
    }

    /// Runs one call on the current connection; a `BaseDevice` ends it when the link closes.
    private func run<Value: Sendable>(
        _ body: @escaping @Sendable (SMPMediaChannel) async throws(TSError) -> Value
    ) async throws(TSError) -> Value {
        guard device.isConnectedAndReady, let channel = link else { throw TSError.notConnected }
        guard let base = device as? BaseDevice else { return try await body(channel) }
        do {
            return try await base.calls.run { try await body(channel) }
        } catch let error as TSError {
            throw error
        } catch {
            if !device.isConnectedAndReady || (error as? AIBudsError)?.code == .deviceNotConnected {
                throw TSError(.notConnected, "the device disconnected", underlying: error)
            }
            throw TSError(.taskFailed, "the device call failed", underlying: error)
        }
    }
}
