/// The SDK's device-side entry point: initialization, plugins, scanning. Static members only.
///
/// Device operations (connect, commands) are not here: they are called on the device itself.
public final class AIBudsSDK: Sendable {
    private init() {}
}
