import AIBudsFoundation

/// Finding each other: the device signals its location (sound, light) when the app asks, and the
/// wearer can ask the device to find the phone (a ``DeviceStateEvent/findPhone(searching:)`` event:
/// the app rings until the phone is found, then reports it).
public protocol DeviceFindAPI: DeviceAPI {
    /// Starts signalling.
    func findDevice() async throws
    /// Stops signalling.
    func stopFindDevice() async throws
    /// Tells the device the phone was found: its search ends (`findPhone(searching: false)`). The
    /// device refuses (device status code 7) when the wearer is not looking for the phone.
    func reportPhoneFound() async throws
    /// Whether the wearer asked the device to find the phone and it is not reported found yet.
    var isFindingPhone: Bool { get }
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

    /// Reports the phone found, then calls `completion` on the callback queue.
    public func reportPhoneFound(_ completion: AIBudsCompletionHandler?) {
        AIBudsCall.run(completion) { try await self.reportPhoneFound() }
    }
}
