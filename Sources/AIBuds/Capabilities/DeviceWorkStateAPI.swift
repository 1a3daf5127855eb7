import AIBudsFoundation

/// The device's work state (what it is doing).
public protocol DeviceWorkStateAPI: DeviceAPI {
    /// The last known work state; updated by the device's `workState` events.
    var workState: WorkState { get }
    /// Reads the work state, updating ``workState``.
    func requestQueryWorkState() async throws -> WorkState
}

extension DeviceWorkStateAPI {
    /// Reads the work state into ``workState``.
    public func requestQueryWorkState(_ completion: AIBudsCompletionHandler?) {
        AIBudsCall.run(completion) { _ = try await self.requestQueryWorkState() }
    }
}

/// The device's work mode (normal, low latency), the Device group's `workMode` setting.
public protocol DeviceWorkModeAPI: DeviceAPI {
    /// The last known work mode.
    var workMode: WorkMode { get }
    /// Reads the work mode, updating ``workMode``.
    func requestQueryWorkMode() async throws -> WorkMode
    /// Switches an audio device between normal and low-latency (gaming) mode.
    func setWorkMode(_ mode: WorkMode) async throws
}

extension DeviceWorkModeAPI {
    /// Reads the work mode into ``workMode``.
    public func requestQueryWorkMode(_ completion: AIBudsCompletionHandler?) {
        AIBudsCall.run(completion) { _ = try await self.requestQueryWorkMode() }
    }

    /// Switches between normal and low-latency (gaming) mode, then calls `completion` on the
    /// callback queue.
    public func setWorkMode(_ mode: WorkMode, completion: AIBudsCompletionHandler?) {
        AIBudsCall.run(completion) { try await self.setWorkMode(mode) }
    }
}
