import AIBudsFoundation
import Foundation

// Firmware updates. Declared with their models; not implemented over the wire yet.

/// Device firmware update.
public protocol DeviceOtaAPI: DeviceAPI {
    /// Updates the firmware from the image at `filePath`, reporting progress 0.0–1.0.
    func startOta(withFilePath filePath: String, progress: AIBudsProgressHandler?) async throws
}

extension DeviceOtaAPI {
    /// Updates the firmware: `startHandler` when the transfer starts, `progressHandler` with 0.0–1.0,
    /// `completionHandler` once at the end.
    public func startOta(
        withFilePath filePath: String, startHandler: (@Sendable () -> Void)?,
        progressHandler: AIBudsProgressHandler?, completionHandler: AIBudsCompletionHandler?
    ) {
        AIBudsCall.run(completionHandler) {
            if let startHandler { AIBudsCall.deliver(startHandler) }
            try await self.startOta(withFilePath: filePath) { value in
                AIBudsCall.deliver { progressHandler?(value) }
            }
        }
    }
}

/// Camera module firmware update.
public protocol DeviceCameraOtaAPI: DeviceAPI {
    /// The camera module's firmware version, when known.
    var cameraFirmwareVersion: String? { get }
    /// Updates the camera firmware from the image at `filePath`, reporting progress 0.0–1.0.
    func startCameraOta(withFilePath filePath: String, progress: AIBudsProgressHandler?) async throws
}

extension DeviceCameraOtaAPI {
    /// Updates the camera firmware; `completionHandler` runs once at the end.
    public func startCameraOta(
        withFilePath filePath: String, startHandler: (@Sendable () -> Void)?,
        progressHandler: AIBudsProgressHandler?, completionHandler: AIBudsCompletionHandler?
    ) {
        AIBudsCall.run(completionHandler) {
            if let startHandler { AIBudsCall.deliver(startHandler) }
            try await self.startCameraOta(withFilePath: filePath) { value in
                AIBudsCall.deliver { progressHandler?(value) }
            }
        }
    }
}
