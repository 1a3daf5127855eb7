import AIBudsFoundation
import Foundation

/// Battery, language, storage, media count and time of a device.
///
/// The async members are the source of truth; the completion-handler members wrap them and call their
/// completion exactly once on the SDK's callback queue.
public protocol DeviceInfoAPI: DeviceAPI {
    /// The last known battery status.
    var batteryStatusInfo: BatteryStatusInfoModel? { get }
    /// The device's current UI language.
    var languageSetting: DeviceLanguage? { get }
    /// The languages the device offers.
    var supportedLanguages: [DeviceLanguage] { get }
    /// The last known storage use.
    var storageInfo: StorageInfoModel? { get }
    /// The last known media counts.
    var mediaCountInfo: MediaCountInfoModel? { get }
    /// The capabilities the device reported on its last connection (each names a capability
    /// protocol), kept across launches.
    var capabilities: Set<DeviceCapability> { get }
    /// What the hardware has (pair, camera, display, sensors), derived from the last connection.
    var hardwareConfiguration: DeviceHardwareConfiguration { get }

    /// Sets the device clock to the host's current time; returns the device's status code.
    func syncDeviceTime() async throws -> NSNumber?
    /// Sets the device clock to `date`; returns the device's status code.
    func setDeviceTime(to date: Date) async throws -> NSNumber?
    /// Reads the device clock.
    func requestQueryDeviceTime() async throws -> Date
    /// Sets the device's UI language; returns the device's status code.
    func setDeviceLanguage(_ language: DeviceLanguage) async throws -> NSNumber?
    /// Reads the UI language and the supported languages, updating ``languageSetting``.
    func requestQueryLanguage() async throws -> DeviceLanguage
    /// Reads the storage use, updating ``storageInfo``.
    func requestQueryStorageInfo() async throws -> StorageInfoModel
    /// Reads the media counts, updating ``mediaCountInfo``.
    func requestQueryMediaCountInfo() async throws -> MediaCountInfoModel
    /// Reads the battery status, updating ``batteryStatusInfo``.
    func requestQueryBatteryStatus() async throws -> BatteryStatusInfoModel
}

extension DeviceInfoAPI {
    /// Sets the device clock to the host's current time.
    public func syncDeviceTime(_ completion: AIBudsStatusCodeCompletionHandler?) {
        AIBudsCall.run(completion) { try await self.syncDeviceTime() }
    }

    /// Sets the device clock to `date`.
    public func setDeviceTime(to date: Date, completion: AIBudsStatusCodeCompletionHandler?) {
        AIBudsCall.run(completion) { try await self.setDeviceTime(to: date) }
    }

    /// Sets the device clock to `date` (the spelling of ``setDeviceTime(to:completion:)`` in the
/// vendor's architecture overview).
    public func setDeviceTime(_ date: Date, completion: AIBudsStatusCodeCompletionHandler?) {
        setDeviceTime(to: date, completion: completion)
    }

    /// Sets the device's UI language.
    public func setDeviceLanguage(_ language: DeviceLanguage, completion: AIBudsStatusCodeCompletionHandler?) {
        AIBudsCall.run(completion) { try await self.setDeviceLanguage(language) }
    }

    /// Reads the storage use into ``storageInfo``.
    public func requestQueryStorageInfo(_ completion: AIBudsCompletionHandler?) {
        AIBudsCall.run(completion) { _ = try await self.requestQueryStorageInfo() }
    }

    /// Reads the media counts into ``mediaCountInfo``.
    public func requestQueryMediaCountInfo(_ completion: AIBudsCompletionHandler?) {
        AIBudsCall.run(completion) { _ = try await self.requestQueryMediaCountInfo() }
    }

    /// Reads the battery status into ``batteryStatusInfo``.
    public func requestQueryBatteryStatus(_ completion: AIBudsCompletionHandler?) {
        AIBudsCall.run(completion) { _ = try await self.requestQueryBatteryStatus() }
    }
}
