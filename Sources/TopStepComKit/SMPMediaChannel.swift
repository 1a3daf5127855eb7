import AIBuds
import AIBudsFoundation
import AIBudsSMP
import AIBudsSMPClient
import AIBudsWire
import Foundation

/// The media channel of a device reached with an `SMPClient`: Media group (65) list, delete,
/// delete all and the `changed` long-poll, File group (8) pipelined download and SHA-256.
struct SMPMediaChannel: MediaDeviceChannel {
    /// The client of the device's control link.
    let client: SMPClient
    /// The device's identity (its UUID string).
    let deviceIdentity: String
    /// The operations the device supports for audio recordings.
    let audioOperations: TSMediaFileOperation
    /// Whether the device is connected right now.
    let connected: @Sendable () -> Bool
    /// Download requests in flight (nil: the client's window).
    let window: Int?

    /// How long a long-poll may take beyond its wait before the client gives up.
    static let longPollMargin: Duration = .seconds(5)

    /// Creates the channel of a device with the capability names of its Device `info`.
    init(client: SMPClient, deviceIdentity: String, capabilities: [String], window: Int? = nil,
         connected: @escaping @Sendable () -> Bool) {
        self.client = client
        self.deviceIdentity = deviceIdentity
        self.audioOperations = Self.operations(capabilities: capabilities)
        self.window = window
        self.connected = connected
    }

    /// The audio recording operations of a device with these capabilities (docs/protocol.md §3):
    /// `mediaFile` gives list, download, delete and observeChanges; `mediaFile.deleteAll` adds
    /// delete all. Without `mediaFile`, nothing.
    static func operations(capabilities: [String]) -> TSMediaFileOperation {
        guard capabilities.contains("mediaFile") else { return .none }
        var operations: TSMediaFileOperation = [.list, .download, .delete, .observeChanges]
        if capabilities.contains("mediaFile.deleteAll") { operations.insert(.deleteAll) }
        return operations
    }

    var isConnected: Bool { connected() }

    func supportedOperations(for type: TSMediaFileType) -> TSMediaFileOperation {
        type == .audioRecording ? audioOperations : .none
    }

    func list(wireType: Int) async throws(TSError) -> DeviceMediaListing {
        guard isConnected else { throw TSError.notConnected }
        do {
            let listing = try await client.mediaListing(type: MediaFileType(lenientRawValue: wireType).rawValue)
            return DeviceMediaListing(generation: listing.generation, files: listing.files.map { entry in
                DeviceMediaEntry(
                    id: entry.id, name: entry.name, type: MediaFileType(lenientRawValue: entry.type), size: entry.size,
                    hasSixAxisData: entry.sixaxis, sha256: entry.sha256.map { Array($0) })
            })
        } catch {
            throw map(error, name: nil)
        }
    }

    func changed(since: UInt64, waitMilliseconds: UInt32) async throws(TSError) -> MediaChange {
        let wait = Duration.milliseconds(Int64(waitMilliseconds))
        let timeout: Duration? = waitMilliseconds == 0 ? nil : wait + Self.longPollMargin
        let response = try await send(MediaChangedRequest(since: since, waitMs: UInt64(waitMilliseconds)), timeout: timeout)
        return MediaChange(generation: response.generation, types: response.types)
    }

    func delete(name: String, generation: UInt64) async throws(TSError) -> UInt64 {
        try await send(MediaDeleteRequest(name: name, generation: generation)).generation
    }

    func deleteAll(wireType: Int) async throws(TSError) -> UInt64 {
        try await send(MediaDeleteAllRequest(type: wireType)).generation
    }

    func sha256(name: String) async throws(TSError) -> [UInt8]? {
        guard isConnected else { throw TSError.notConnected }
        do {
            return try await client.mediaSHA256(named: name)
        } catch {
            throw map(error, name: name)
        }
    }

    func download(
        name: String, into file: FileHandle, from offset: UInt64,
        progress: @escaping @Sendable (UInt64, UInt64) -> Void
    ) async throws(TSError) -> MediaDownloadResult {
        guard isConnected else { throw TSError.notConnected }
        do {
            let result = try await client.downloadFile(
                path: Self.path(name), to: file, from: offset, window: window, verify: offset == 0,
                progress: { progress($0.completed, $0.total) })
            return MediaDownloadResult(size: result.size, verifiedWhole: offset == 0 && result.verified)
        } catch {
            throw map(error, name: name)
        }
    }

    /// The File group path of a device file name.
    static func path(_ name: String) -> String { "/media/" + name }

    /// Sends a request, failing fast when the device is not connected, and maps the error.
    private func send<R: SMPRequest>(_ request: R, timeout: Duration? = nil) async throws(TSError) -> R.Response {
        guard isConnected else { throw TSError.notConnected }
        do {
            return try await client.send(request, timeout: timeout)
        } catch {
            throw map(error, name: (request as? MediaDeleteRequest)?.name)
        }
    }

    /// The TopStep error for an SMP client error.
    func map(_ error: SMPError, name: String?) -> TSError {
        let subject = name.map { "'\($0)'" } ?? "the request"
        switch error.code {
        case .timeout:
            return TSError(.timeout, "the device did not answer \(subject) in time", underlying: error)
        case .transport:
            return TSError(.transmissionInterrupted, "the link to the device broke during \(subject)", underlying: error)
        case .closed:
            return TSError(.notConnected, "the device disconnected during \(subject)", underlying: error)
        case .cancelled:
            return TSError(.userCancelled, "\(subject) was cancelled", underlying: error)
        case .malformedResponse:
            return TSError(.protocolMismatch, "the device's answer to \(subject) is not understood", underlying: error)
        case .invalidRequest:
            return TSError(.invalidParameter, "\(subject) cannot be sent to the device", underlying: error)
        case .verificationFailed:
            return TSError(.dataFormatError, "\(subject) does not match the device's SHA-256", underlying: error)
        case .localIO:
            if let posix = (error.underlying as? CocoaError)?.underlying as? POSIXError, posix.code == .ENOSPC {
                return TSError(.noSpace, "no space left to store \(subject)", underlying: error)
            }
            return TSError(.dataSetFailed, "cannot store \(subject)", underlying: error)
        case .device(let device):
            return Self.map(device, subject: subject, error: error)
        }
    }

    /// The TopStep error for a device return code.
    static func map(_ device: SMPDeviceError, subject: String, error: SMPError) -> TSError {
        if let code = device.projectReturnCode {
            switch code {
            case .staleGeneration, .notFound:
                return TSError(.parameterError, "\(subject) is no longer on the device's current list; fetch it again", underlying: error)
            case .notSupported: return TSError(.notSupported, "the device does not support \(subject)", underlying: error)
            case .busy: return TSError(.busy, "the device is busy", underlying: error)
            case .invalidArgument: return TSError(.invalidParameter, "the device rejected \(subject)", underlying: error)
            case .badState: return TSError(.notReady, "the device is not ready for \(subject)", underlying: error)
            case .noSpace: return TSError(.noSpace, "the device's storage is full", underlying: error)
            case .ok, .unknown: return TSError(.taskFailed, "the device failed \(subject)", underlying: error)
            }
        }
        if device.group == SMPGroupID.file {
            // Zephyr's FS_MGMT_ERR codes: 3 file not found, 13 hash type not found.
            switch device.rc {
            case 3: return TSError(.parameterError, "\(subject) is no longer on the device; fetch the list again", underlying: error)
            case 13: return TSError(.notSupported, "the device has no SHA-256 for \(subject)", underlying: error)
            default: return TSError(.taskFailed, "the device failed \(subject)", underlying: error)
            }
        }
        switch device.mgmtError {
        case .noEntry?: return TSError(.parameterError, "\(subject) is no longer on the device; fetch the list again", underlying: error)
        case .notSupported?: return TSError(.notSupported, "the device does not support \(subject)", underlying: error)
        case .busy?: return TSError(.busy, "the device is busy", underlying: error)
        case .invalidValue?: return TSError(.invalidParameter, "the device rejected \(subject)", underlying: error)
        case .badState?: return TSError(.notReady, "the device is not ready for \(subject)", underlying: error)
        case .noMemory?: return TSError(.noSpace, "the device is out of space", underlying: error)
        case .timeout?: return TSError(.timeout, "the device timed out on \(subject)", underlying: error)
        default: return TSError(.taskFailed, "the device failed \(subject)", underlying: error)
        }
    }
}
