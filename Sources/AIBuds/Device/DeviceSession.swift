import AIBudsFoundation

/// One open connection to a device, made by a link plugin; a device has at most one at a time.
///
/// The device class of a plugin opens it (``BaseDevice/openSession(for:)``); ``BaseDevice`` drives its
/// lifecycle: it initializes through ``readIdentity()`` and ``readInitialState(capabilities:)``, then
/// follows the device's events with ``nextEvents()`` until that throws (the link is lost) or the
/// session is closed.
public protocol DeviceSession: AnyObject, Sendable {
    /// Reads what the device says about itself.
    func readIdentity() async throws -> DeviceIdentity
    /// Reads the current values of the device's states (battery, storage, work state …) as events.
    func readInitialState(capabilities: Set<DeviceCapability>) async throws -> [DeviceStateEvent]
    /// Waits for the device's next state changes; returns an empty list when nothing happened within the
    /// device's wait, and throws when the link is lost.
    func nextEvents() async throws -> [DeviceStateEvent]
    /// Tells the device the outcome of the app's service authorization (the AI bridge plugins run
    /// during the connection); returns the state changes the device answered with.
    func reportServiceAuthorization(success: Bool) async throws -> [DeviceStateEvent]
    /// Closes the session; calls in flight fail.
    func close() async
}
