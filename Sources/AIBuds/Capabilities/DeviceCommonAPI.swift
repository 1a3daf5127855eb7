import AIBudsFoundation

/// Factory reset and power off.
public protocol DeviceCommonAPI: DeviceAPI {
    /// Restores factory settings; the device deletes all its media.
    func factoryReset() async throws
    /// Powers the device off; its session ends and the SDK reports a disconnection.
    func powerOff() async throws
}

extension DeviceCommonAPI {
    /// Restores factory settings.
    public func factoryReset(_ completion: AIBudsCompletionHandler?) {
        AIBudsCall.run(completion) { try await self.factoryReset() }
    }

    /// Switches the device off, then calls `completion` on the callback queue; the device stops
    /// answering until restarted.
    public func powerOff(_ completion: AIBudsCompletionHandler?) {
        AIBudsCall.run(completion) { try await self.powerOff() }
    }
}
