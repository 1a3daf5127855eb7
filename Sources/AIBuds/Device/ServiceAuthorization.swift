import AIBudsFoundation
import Foundation

/// The service authorization step of a connection: when ``ConnectParams/aiAuthParams`` asks for
/// StarBurst or MltCloud, the registered bridge plugin authorizes the device; when the device has an
/// on-device voice assistant, the voice assistant plugin does. The outcome goes to the device
/// (``DeviceSession/reportServiceAuthorization(success:)``); a failure is logged and reported, and the
/// connection goes on.
enum ServiceAuthorization {
    /// Runs the bridges the parameters and the device's capabilities ask for; returns whether every
    /// one succeeded, or nil when none was asked for or registered.
    static func run(
        device: any DeviceConvertible, params: ConnectParams?, capabilities: Set<DeviceCapability>, logger: (String) -> Void
    ) async -> Bool? {
        let plugins = AIBudsSDK.state.withLock { ($0.starBurstPlugin, $0.mltCloudPlugin, $0.voiceAssistantPlugin) }
        let auth = params?.aiAuthParams
        var outcome: Bool?
        func record(_ name: String, _ body: () async throws -> Data) async {
            do {
                let token = try await body()
                outcome = (outcome ?? true) && !token.isEmpty
                if token.isEmpty { logger("\(name) authorization returned no token") }
            } catch {
                outcome = false
                logger("\(name) authorization failed: \(error)")
            }
        }
        if let params = auth?.starburst, let plugin = plugins.0 {
            await record("StarBurst") { try await plugin.authorize(device: device, params: params) }
        }
        if let params = auth?.mltcloud, let plugin = plugins.1 {
            await record("MltCloud") { try await plugin.authorize(device: device, params: params) }
        }
        if auth != nil, capabilities.contains(.voiceAssistant), let plugin = plugins.2 {
            await record("voice assistant") { try await plugin.authorizeVoiceAssistant(device: device) }
        }
        return outcome
    }
}

extension DeviceSession {
    /// Reports the app's service authorization to the device; the default reports nothing.
    public func reportServiceAuthorization(success: Bool) async throws -> [DeviceStateEvent] { [] }
}
