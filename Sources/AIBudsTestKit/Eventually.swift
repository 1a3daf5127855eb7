/// Checks `condition` every 10 ms until it holds, and throws ``EventuallyTimeout`` naming `what`
/// when it still does not after `timeout`; an error `condition` throws ends the wait with it.
///
/// The timeout is long on purpose: a wait for something that will happen costs nothing when it
/// happens, and a loaded machine can take seconds. This is not the way to show that something did
/// *not* happen: wait for a later event that must come after it, then assert (docs/architecture.md,
/// "Tests in parallel").
public func eventually(
    _ what: String, timeout: Duration = .seconds(60), isolation: isolated (any Actor)? = #isolation,
    _ condition: () async throws -> Bool
) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while try await !condition() {
        guard clock.now < deadline else { throw EventuallyTimeout(what: what, timeout: timeout) }
        try await Task.sleep(for: .milliseconds(10))
    }
}

/// `eventually` gave up: the condition it polled was still false when its timeout ran out.
public struct EventuallyTimeout: Error, CustomStringConvertible {
    /// What the test was waiting for, as the caller described it.
    public let what: String
    /// How long the wait lasted.
    public let timeout: Duration
    /// Names what never came true and after how long, for the test's failure message.
    public var description: String { "timed out after \(timeout) waiting for \(what)" }
}
