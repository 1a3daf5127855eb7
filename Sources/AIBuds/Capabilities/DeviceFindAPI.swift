import AIBudsFoundation

/// Makes the device signal its location (sound, light).
public protocol DeviceFindAPI: DeviceAPI {
    /// Starts signalling.
    func findDevice() async throws
    /// Stops signalling.
    func stopFindDevice() async throws
}

extension DeviceFindAPI {
    /// Starts signalling.
    public func findDevice(_ completion: AIBudsCompletionHandler?) {
        AIBudsCall.run(completion) { try await self.findDevice() }
    }

    /// Stops signalling.
    public func stopFindDevice(_ completion: AIBudsCompletionHandler?) {
        AIBudsCall.run(completion) { try await self.stopFindDevice() }
    }
}
