import AIBuds
import AIBudsFoundation
import AIBudsSMPClient
import AIBudsWire
import Foundation

/// Firmware updates over the SMP Image group (docs/protocol.md §2, "Image management"): image 0
/// is the main firmware (`DeviceOtaAPI`, every product), image 1 the camera module's
/// (`DeviceCameraOtaAPI`, glasses).
///
/// The file is checked first (MCUboot header, TLVs, hash; the device has that image and a slot
/// large enough); the upload is pipelined (``SMPFirmwareUpdater``) and goes on from the device's
/// offset after a drop, also across a reconnection; then the image is tested, the device reset and
/// awaited, and the new image confirmed. A device that comes back on its old image fails the
/// update with `operationFailedDueToDeviceReturnNonSuccessStatusCode` ("reverted").
extension SMPDevice {
    /// How long an update waits for a device that dropped or restarted.
    static let otaReconnectTimeout = Duration.seconds(60)

    // MARK: DeviceOtaAPI

    /// Updates the main firmware (image 0) from the MCUboot image at `filePath`; progress is the
    /// upload's fraction up to 0.95, then 1.0 once the new firmware runs and is confirmed.
    public func startOta(withFilePath filePath: String, progress: AIBudsProgressHandler?) async throws {
        try await updateFirmware(filePath: filePath, image: 0, capability: .ota, progress: progress)
    }

    /// Updates the camera module's firmware (image 1); see ``startOta(withFilePath:progress:)``.
    public func startCameraOta(withFilePath filePath: String, progress: AIBudsProgressHandler?) async throws {
        try await updateFirmware(filePath: filePath, image: 1, capability: .cameraOta, progress: progress)
    }

    /// The whole update of `image`; returns the version that runs afterwards.
    @discardableResult
    public func updateFirmware(
        filePath: String, image: Int, capability: DeviceCapability, progress: AIBudsProgressHandler?
    ) async throws -> String {
        let file: SMPFirmwareImage
        do throws(SMPError) { file = try SMPFirmwareImage(path: filePath) } catch { throw error.sdkError }
        let slots = try await run(capability) { session in
            do throws(SMPError) { return try await session.client.imageSlotInfo() } catch { throw error.sdkError }
        }
        guard let slot = slots.first(where: { $0.image == UInt64(image) }) else {
            throw AIBudsError(.deviceNotSupport, "\(name) has no firmware image \(image)")
        }
        if let maximum = slot.maxImageSize, UInt64(file.data.count) > maximum {
            throw AIBudsError(.operationFailedDueToWrongParameters,
                              "the image of \(file.data.count) bytes does not fit image \(image)'s slot of \(maximum) bytes")
        }
        beginBusy()
        defer { endBusy() }
        _ = try await retryingOverDrops(capability) { updater async throws(SMPError) in
            try await updater.upload(file, image: image) { value in
                progress?(0.95 * Double(value.completed) / Double(max(value.total, 1)))
            }
        }
        try await retryingOverDrops(capability) { updater async throws(SMPError) in
            do throws(SMPError) {
                try await updater.client.testImage(hash: file.hash)
            } catch where error.deviceError?.rc == ImageManagementError.testOfActiveDenied.rawValue {
                return  // a step repeated after a drop: the image already runs
            }
            do throws(SMPError) { try await updater.client.reset() } catch where error.code == .timeout {}
        }
        let outcome = try await retryingOverDrops(capability) { updater async throws(SMPError) in
            try await updater.waitForDevice()
            return try await updater.confirmIfRunning(hash: file.hash, image: image)
        }
        switch outcome {
        case .reverted(let running):
            throw AIBudsError(.operationFailedDueToDeviceReturnNonSuccessStatusCode,
                              "the device reverted to firmware \(running): image \(image) \(file.version) did not stay")
        case .confirmed(let version):
            if image == 0 {
                let info = try await run(capability) { try await $0.request(DeviceInfoRequest()) }
                apply([.firmwareVersion(info.firmware)], notify: true)
            } else if capabilities.contains(.camera) {
                _ = try await readSetting(DeviceSettingName.camera, .camera)
            }
            progress?(1)
            return version
        }
    }

    /// Runs `step` on the current session; when the link drops or the device restarts under it
    /// (the session closes, the device reconnects), runs it again on the next session, for up to
    /// ``otaReconnectTimeout``.
    private func retryingOverDrops<Value: Sendable>(
        _ capability: DeviceCapability, _ step: @escaping @Sendable (SMPFirmwareUpdater) async throws(SMPError) -> Value
    ) async throws -> Value {
        let deadline = ContinuousClock.now + Self.otaReconnectTimeout
        while true {
            do {
                return try await run(capability) { session in
                    do throws(SMPError) {
                        return try await step(SMPFirmwareUpdater(client: session.client, reconnectTimeout: Self.otaReconnectTimeout))
                    } catch {
                        throw error.sdkError
                    }
                }
            } catch let error as AIBudsError where Self.isLinkLoss(error) && ContinuousClock.now < deadline {
                try Task.checkCancellation()
                logger.log(.info, "ota", "\(name): \(error.localizedDescription); going on when it is back")
                try await Task.sleep(for: .milliseconds(200))
            }
        }
    }

    /// Whether `error` means the link or session went away (worth waiting for the device).
    private static func isLinkLoss(_ error: AIBudsError) -> Bool {
        [.deviceNotConnected, .deviceNotReady, .peripheralNotConnected, .peripheralUnavailable, .blePacketSendFailed,
         .bleCommandExecFailedDueToTimeout].contains(error.code)
    }
}
