import AIBudsFoundation
import Foundation

/// Factory reset, media storage format and power off.
public protocol DeviceCommonAPI: DeviceAPI {
    /// Restores factory settings; the device deletes all its media.
    func factoryReset() async throws
    /// Deletes every media file on the device and nothing else (settings stay); returns how many
    /// it deleted. Refused while an import of this SDK runs (cancel it first) and, by the device
    /// (busy, 4 with device status code 5), while it records or serves files to another app; a
    /// transfer session of this SDK is ended first, so media lists fetched before are void.
    func formatMediaStorage() async throws -> Int
    /// Powers the device off; its session ends and the SDK reports a disconnection.
    func powerOff() async throws
}

extension DeviceCommonAPI {
    /// Restores factory settings.
    public func factoryReset(_ completion: AIBudsCompletionHandler?) {
        AIBudsCall.run(completion) { try await self.factoryReset() }
    }

    /// Formats the device's media storage, then calls `completion` with the device's status code
    /// (0 when done; the refusing code otherwise).
    public func formatMediaStorage(_ completion: AIBudsStatusCodeCompletionHandler?) {
        AIBudsCall.run(completion) {
            _ = try await self.formatMediaStorage()
            return NSNumber(value: 0)
        }
    }

    /// Switches the device off, then calls `completion` on the callback queue; the device stops
    /// answering until restarted.
    public func powerOff(_ completion: AIBudsCompletionHandler?) {
        AIBudsCall.run(completion) { try await self.powerOff() }
    }
}
