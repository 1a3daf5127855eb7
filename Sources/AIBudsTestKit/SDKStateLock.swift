import AIBuds
import AIBudsSync
import Testing

/// Guards the SDK's process-wide state in tests that run in parallel: `AIBudsSDK` (initialization,
/// plugins, configuration, delegate, the one scan that may run), `StoredDevicesMgr`, and
/// everything an SDK device reads from them (command and connect timeouts, packet pacing,
/// reconnect policy, callback queue).
///
/// This is the one mechanism every test target uses for that state (a parent `.serialized` suite
/// cannot span test targets): a test takes the lock through the ``SDKStateTrait`` on its suite
/// (`@Suite(.sdkState(.exclusive))`), for the whole test, its suite's `init` included.
///
/// - ``Access/exclusive``: tests that change the state (`AIBudsSDK.initialize`, reset, scan,
///   delegate, `StoredDevicesMgr`). They run one at a time and alone among the tests that take
///   the lock; the SDK is reset before and after each, so each starts from an uninitialized SDK
///   and leaves nothing behind.
/// - ``Access/shared``: tests that only use SDK devices (an `SMPDevice` made without
///   `AIBudsSDK`): they run side by side, never while an exclusive test has changed the
///   configuration their devices read or listens to the SDK-wide delegate that hears them.
///
/// Waiters are served in arrival order, so a waiting exclusive test is not starved by a stream
/// of shared ones. The lock is re-entrant within a test (a suite and its nested suites may both
/// carry the trait).
public final class SDKStateLock: Sendable {
    /// How a test uses the SDK's process-wide state.
    public enum Access: Sendable, Equatable {
        /// Uses SDK devices, with the SDK in its default, uninitialized state.
        case shared
        /// Changes the SDK's state.
        case exclusive
    }

    private struct Waiter {
        var access: Access
        var continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var readers = 0
        var writer = false
        var waiters: [Waiter] = []

        func admits(_ access: Access) -> Bool {
            access == .shared ? !writer : !writer && readers == 0
        }

        mutating func take(_ access: Access) {
            if access == .shared { readers += 1 } else { writer = true }
        }

        /// Admits the waiters at the head of the queue that can run now.
        mutating func admitWaiters() -> [CheckedContinuation<Void, Never>] {
            var admitted: [CheckedContinuation<Void, Never>] = []
            while let first = waiters.first, admits(first.access) {
                waiters.removeFirst()
                take(first.access)
                admitted.append(first.continuation)
            }
            return admitted
        }
    }

    /// The lock of this process.
    public static let shared = SDKStateLock()

    @TaskLocal private static var held: Access?

    private let state = Locked(State())

    private init() {}

    /// Runs `body` holding the lock with `access`; the SDK is reset around an exclusive hold.
    public func withAccess<T: Sendable>(_ access: Access, _ body: () async throws -> T) async rethrows -> T {
        if let held = Self.held {
            precondition(held == .exclusive || access == .shared, "a test holding shared SDK access asked for exclusive access")
            return try await body()
        }
        await acquire(access)
        if access == .exclusive { AIBudsSDK.resetForTesting() }
        defer {
            if access == .exclusive { AIBudsSDK.resetForTesting() }
            release(access)
        }
        return try await Self.$held.withValue(access) { try await body() }
    }

    private func acquire(_ access: Access) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                guard state.waiters.isEmpty, state.admits(access) else {
                    state.waiters.append(Waiter(access: access, continuation: continuation))
                    return false
                }
                state.take(access)
                return true
            }
            if now { continuation.resume() }
        }
    }

    private func release(_ access: Access) {
        let admitted = state.withLock { state in
            if access == .shared { state.readers -= 1 } else { state.writer = false }
            return state.admitWaiters()
        }
        for continuation in admitted { continuation.resume() }
    }
}

/// A suite or test trait that holds ``SDKStateLock`` for each test (see there for which access a
/// test needs); it applies to the tests of nested suites too.
public struct SDKStateTrait: SuiteTrait, TestTrait, TestScoping {
    /// The access each test takes.
    public let access: SDKStateLock.Access

    /// Nested suites' tests take the lock too.
    public var isRecursive: Bool { true }

    /// Runs the test holding the lock, with the strongest access that any of its traits asks for
    /// (a suite nested in a shared one may ask for exclusive access).
    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let exclusive = test.traits.contains { ($0 as? SDKStateTrait)?.access == .exclusive }
        try await SDKStateLock.shared.withAccess(exclusive ? .exclusive : access, function)
    }
}

extension Trait where Self == SDKStateTrait {
    /// Holds the SDK's process-wide state for each test: `.exclusive` to change it, `.shared` to
    /// use SDK devices under the default, uninitialized SDK.
    public static func sdkState(_ access: SDKStateLock.Access) -> Self {
        SDKStateTrait(access: access)
    }
}
