import AIBudsFoundation
import Foundation

/// The StarBurst AI authorization bridge an app registers with `AIBudsSDK.setStarBurstAIPlugin(_:)`.
///
/// The SDK calls it while a device connects when ``/AIBudsFoundation/ConnectParams/aiAuthParams`` has StarBurst
/// credentials, and reports the outcome to the device (`serviceAuth`); an empty token or a throw is a
/// failure, which is reported, not a failed connection.
public protocol StarBurstBridgePlugin: AnyObject, Sendable {
    /// Obtains the StarBurst authorization for a device during its connection handshake.
    func authorize(device: any DeviceConvertible, params: StarBurstAIAuthParams) async throws -> Data
}

/// The MltCloud AI authorization bridge an app registers with `AIBudsSDK.setMltCloudAIPlugin(_:)`.
///
/// The SDK calls it while a device connects when ``/AIBudsFoundation/ConnectParams/aiAuthParams`` has MltCloud
/// credentials, and reports the outcome to the device.
public protocol MltCloudBridgePlugin: AnyObject, Sendable {
    /// Obtains the MltCloud authorization for a device during its connection handshake.
    func authorize(device: any DeviceConvertible, params: MltCloudAIAuthParams) async throws -> Data
}

/// The on-device voice assistant bridge registered with `AIBudsSDK.setOnDeviceVoiceAssistantPlugin(_:)`.
///
/// The SDK calls it while a device with an on-device voice assistant connects with
/// ``/AIBudsFoundation/ConnectParams/aiAuthParams`` set, and reports the outcome to the device.
public protocol OnDeviceVoiceAssistantBridgePlugin: AnyObject, Sendable {
    /// Obtains the voice assistant's service authorization for a device.
    func authorizeVoiceAssistant(device: any DeviceConvertible) async throws -> Data
}
