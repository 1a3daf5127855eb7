import AIBudsFoundation
import Foundation

/// The StarBurst AI authorization bridge an app registers with `AIBudsSDK.setStarBurstAIPlugin(_:)`.
///
/// Declared for API compatibility; the SDK does not call it yet (see README's feature table).
public protocol StarBurstBridgePlugin: AnyObject, Sendable {
    /// Obtains the StarBurst authorization for a device during its connection handshake.
    func authorize(device: any DeviceConvertible, params: StarBurstAIAuthParams) async throws -> Data
}

/// The MltCloud AI authorization bridge an app registers with `AIBudsSDK.setMltCloudAIPlugin(_:)`.
///
/// Declared for API compatibility; the SDK does not call it yet.
public protocol MltCloudBridgePlugin: AnyObject, Sendable {
    /// Obtains the MltCloud authorization for a device during its connection handshake.
    func authorize(device: any DeviceConvertible, params: MltCloudAIAuthParams) async throws -> Data
}

/// The on-device voice assistant bridge registered with `AIBudsSDK.setOnDeviceVoiceAssistantPlugin(_:)`.
///
/// Declared for API compatibility; the SDK does not call it yet.
public protocol OnDeviceVoiceAssistantBridgePlugin: AnyObject, Sendable {
    /// Obtains the voice assistant's service authorization for a device.
    func authorizeVoiceAssistant(device: any DeviceConvertible) async throws -> Data
}
