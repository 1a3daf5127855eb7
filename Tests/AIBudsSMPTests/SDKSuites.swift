import AIBudsTestKit
import Testing

/// The suites of this target that use the SDK's process-wide state are nested here and hold
/// `SDKStateLock` for each test (see AIBudsTests' SDKTests): shared by default, exclusive where a
/// suite says so.
@Suite(.sdkState(.shared)) struct SDKTests {}
