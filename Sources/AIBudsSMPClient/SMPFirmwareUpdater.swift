import AIBudsDigest
import AIBudsFiles
import AIBudsMCUboot
import AIBudsWire
import Foundation

/// An MCUboot image file, checked before anything is sent: its header, TLV area and hash.
public struct SMPFirmwareImage: Sendable {
    /// The file's bytes.
    public let data: Data
    /// Its header and TLVs.
    public let header: MCUbootImage

    /// Checks `data` as an MCUboot image (magic, sizes, TLVs, and the SHA-256 of its header and
    /// body against the one its TLV states).
    /// - Throws: `SMPError` `.invalidRequest` with the `MCUbootImageError` as its cause.
    public init(data: Data) throws(SMPError) {
        do throws(MCUbootImageError) {
            let header = try MCUbootImage(parsing: data)
            try header.verify(data, sha256: { SHA256.hash($0) })
            self.header = header
        } catch {
            throw SMPError(.invalidRequest, "not a valid firmware image: \(error)", underlying: error)
        }
        self.data = data
    }

    /// The largest image file read (256 MiB; a slot of a wearable holds a few MiB).
    public static let maximumFileSize = 256 << 20

    /// Reads and checks the image file at `path` (a regular file of at most ``maximumFileSize`` bytes).
    public init(path: String) throws(SMPError) {
        let data: Data
        do {
            data = try InputFile.read(URL(fileURLWithPath: path), limit: Self.maximumFileSize)
        } catch {
            throw SMPError(.localIO, "cannot read the firmware image \(error)", underlying: error)
        }
        try self.init(data: data)
    }

    /// The hash Image `state` reports for this image once uploaded.
    public var hash: Data { header.hash }
    /// The version from its header, Zephyr-spelled.
    public var version: String { header.version.description }
}

/// How a test boot ended.
public enum SMPFirmwareActivation: Sendable, Equatable {
    /// The new image runs and is confirmed; its version.
    case confirmed(version: String)
    /// The device came back on its previous image (the new one did not boot, or its swap was
    /// interrupted); the version that runs.
    case reverted(runningVersion: String)
}

/// The wire side of a firmware update over one SMP client: an upload that survives link drops
/// and corrupted chunks, then test, reset, wait for the device, confirm.
public struct SMPFirmwareUpdater: Sendable {
    /// The client the update speaks through.
    public let client: SMPClient
    /// How long a dropped link may stay silent before the update gives up.
    public var reconnectTimeout: Duration
    /// How many drops an upload survives.
    public var maxInterruptions: Int

    /// Creates an updater speaking through `client`, waiting up to `reconnectTimeout` for a
    /// dropped device and surviving `maxInterruptions` drops per upload.
    public init(client: SMPClient, reconnectTimeout: Duration = .seconds(60), maxInterruptions: Int = 16) {
        self.client = client
        self.reconnectTimeout = reconnectTimeout
        self.maxInterruptions = maxInterruptions
    }

    /// Uploads `file` to image `image`'s secondary slot. After a drop (a timeout or transport
    /// error) it waits for the device to answer again and goes on from the device's offset; when
    /// the device refuses the finished upload because its bytes do not have the file's SHA-256 (a
    /// chunk was corrupted on the way), it sends the image again once.
    public func upload(
        _ file: SMPFirmwareImage, image: Int, window: Int? = nil,
        progress: (@Sendable (SMPTransferProgress) -> Void)? = nil
    ) async throws(SMPError) -> SMPImageUploadResult {
        var interruptions = 0
        var resent = false
        while true {
            do {
                var result = try await client.uploadImage(file.data, image: image, window: window, progress: progress)
                result.interruptions = interruptions
                return result
            } catch where error.code == .timeout || error.code == .transport {
                interruptions += 1
                guard interruptions <= maxInterruptions else { throw error }
                client.logger.log(.info, "smp", "the firmware upload was interrupted (\(error)); resuming when the device answers")
                try await waitForDevice()
            } catch where Self.isHashMismatch(error) && !resent {
                resent = true
                client.logger.log(.warning, "smp", "the device found the uploaded image corrupted; sending it again")
            }
        }
    }

    /// Whether `error` is the device's `IMG_MGMT_ERR_INVALID_HASH` for an upload.
    static func isHashMismatch(_ error: SMPError) -> Bool {
        guard let device = error.deviceError else { return false }
        return device.group == SMPGroupID.image && device.rc == ImageManagementError.invalidHash.rawValue
    }

    /// Waits until the device answers an echo again, within ``reconnectTimeout``.
    public func waitForDevice() async throws(SMPError) {
        let deadline = ContinuousClock.now + reconnectTimeout
        while true {
            do {
                _ = try await client.send(OSEchoRequest(d: "ota"), timeout: .seconds(1))
                return
            } catch where error.code == .timeout || error.code == .transport {
                guard ContinuousClock.now < deadline else {
                    throw SMPError(.timeout, "the device did not come back within \(reconnectTimeout)", underlying: error)
                }
                do { try await Task.sleep(for: .milliseconds(100)) } catch {
                    throw SMPError(.cancelled, "waiting for the device was cancelled")
                }
            }
        }
    }

    /// Tests the uploaded image with `hash` of `image`, resets the device, waits for it and
    /// confirms the new image when it runs; reports a device that came back on the old one.
    public func activate(hash: Data, image: Int) async throws(SMPError) -> SMPFirmwareActivation {
        try await client.testImage(hash: hash)
        do {
            try await client.reset()
        } catch where error.code == .timeout {
            // The answer can be lost as the device restarts; its state below tells what happened.
        }
        try await waitForDevice()
        return try await confirmIfRunning(hash: hash, image: image)
    }

    /// Reads the slots of `image`: confirms the image with `hash` when it runs, or reports the
    /// version that runs instead.
    public func confirmIfRunning(hash: Data, image: Int) async throws(SMPError) -> SMPFirmwareActivation {
        let states = try await client.imageState().filter { $0.imageNumber == UInt64(image) }
        guard let active = states.first(where: { $0.isActive }) ?? states.first(where: { $0.slot == 0 }) else {
            throw SMPError(.malformedResponse, "the device reports no running image \(image)")
        }
        guard active.hash == hash else { return .reverted(runningVersion: active.version) }
        if !active.isConfirmed { try await client.confirmImage(hash: hash) }
        return .confirmed(version: active.version)
    }
}
