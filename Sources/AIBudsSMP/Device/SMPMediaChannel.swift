import AIBuds
import AIBudsFoundation
import AIBudsSMPClient
import AIBudsWire
import Foundation

/// The media channel of a device reached with an `SMPClient`: the Media group's (65) list, delete,
/// delete all and `changed` long-poll, the File group's (8) SHA-256 and pipelined download, every
/// failure as an `AIBudsError`.
///
/// ``SMPDevice`` runs it on its current session; a tool or a test that holds a client of its own
/// binds it directly.
public struct SMPMediaChannel: MediaFileTransferChannel {
    /// The client of the device's control link.
    public let client: SMPClient
    /// The SDK's identifier of the device.
    public let uuid: UUID
    /// The capabilities the device reported in its Device `info`.
    public let capabilities: Set<DeviceCapability>
    /// How long the device may take to hash a file; `nil`: the client's request timeout.
    let hashTimeout: Duration?
    private let connected: @Sendable () -> Bool

    /// How long a long-poll may take beyond its wait before the client gives up.
    static let longPollMargin: Duration = .seconds(5)

    /// Creates the channel of the device at the other end of `client`; every call fails with
    /// `deviceNotConnected` while `isConnected` says no.
    public init(
        client: SMPClient, uuid: UUID, capabilities: Set<DeviceCapability>, hashTimeout: Duration? = nil,
        isConnected: @escaping @Sendable () -> Bool = { true }
    ) {
        self.client = client
        self.uuid = uuid
        self.capabilities = capabilities
        self.hashTimeout = hashTimeout
        self.connected = isConnected
    }

    /// What `isConnected` says.
    public var isConnectedAndReady: Bool { connected() }

    /// Lists every media file (of `type`, or all), across pages at one generation.
    public func listMediaFiles(type: MediaFileType?) async throws -> DeviceMediaListing {
        DeviceMediaListing(try await call { client throws(SMPError) in try await client.mediaListing(type: type?.rawValue) })
    }

    /// Deletes one file by name; with `generation`, only if the list is still at it.
    public func deleteMediaFile(named name: String, generation: UInt64?) async throws -> UInt64 {
        try await send(MediaDeleteRequest(name: name, generation: generation)).generation
    }

    /// Sends Media `delete all` (for `type`, or every type); returns the new list generation and
    /// the count the device deleted.
    public func deleteAllMediaFiles(type: MediaFileType?) async throws -> (generation: UInt64, deleted: Int) {
        let response = try await send(MediaDeleteAllRequest(type: type?.rawValue))
        return (response.generation, Int(clamping: response.deleted))
    }

    /// The device's SHA-256 of one file (File group `hash`); `nil` when the device cannot hash.
    public func mediaFileSHA256(named name: String) async throws -> [UInt8]? {
        try await call { [hashTimeout] client throws(SMPError) in try await client.mediaSHA256(named: name, timeout: hashTimeout) }
    }

    /// Long-polls the Media group's `changed`; the client waits up to 5 s beyond the device's wait.
    public func mediaListChange(since: UInt64, waitMilliseconds: UInt32) async throws -> MediaListChange {
        let wait = Duration.milliseconds(Int64(waitMilliseconds))
        let timeout: Duration? = waitMilliseconds == 0 ? nil : wait + Self.longPollMargin
        let response = try await send(MediaChangedRequest(since: since, waitMs: UInt64(waitMilliseconds)), timeout: timeout)
        return MediaListChange(generation: response.generation, types: response.types.map(MediaFileType.init(lenientRawValue:)))
    }

    /// Downloads `/media/<name>` with the client's pipelined File group download; a download from
    /// offset 0 is verified against the device's SHA-256.
    public func downloadMediaFile(
        named name: String, into file: FileHandle, from offset: UInt64,
        progress: @escaping @Sendable (UInt64, UInt64) -> Void
    ) async throws -> MediaFileDownload {
        let result = try await call { client throws(SMPError) in
            try await client.downloadFile(
                path: "/media/" + name, to: file, from: offset, verify: offset == 0,
                progress: { progress($0.completed, $0.total) })
        }
        return MediaFileDownload(size: result.size, verifiedWhole: offset == 0 && result.verified)
    }

    /// Sends one request.
    private func send<Request: SMPRequest>(_ request: Request, timeout: Duration? = nil) async throws -> Request.Response {
        try await call { client throws(SMPError) in try await client.send(request, timeout: timeout) }
    }

    /// Runs client calls, failing fast when the device is not connected, with SMP errors as SDK errors.
    private func call<Value>(_ body: (SMPClient) async throws(SMPError) -> Value) async throws -> Value {
        guard isConnectedAndReady else { throw AIBudsError(.deviceNotConnected, "the device is not connected") }
        do {
            return try await body(client)
        } catch {
            throw error.sdkError
        }
    }
}
