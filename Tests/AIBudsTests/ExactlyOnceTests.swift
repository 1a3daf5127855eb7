import AIBudsFoundation
import AIBudsSync
import Foundation
import Testing
@testable import AIBuds

@Suite struct ExactlyOnceTests {
    @Test func oneShotKeepsTheFirstResult() async throws {
        let shot = OneShot<Int>()
        async let first = shot.value()
        async let second = shot.value()
        #expect(shot.succeed(1))
        #expect(!shot.succeed(2))
        #expect(!shot.fail(AIBudsError(.unknown)))
        #expect(try await first == 1)
        #expect(try await second == 1)
        #expect(try await shot.value() == 1)
    }

    @Test func cancelledWaiterDoesNotResolve() async {
        let shot = OneShot<Int>()
        let waiter = Task { try await shot.value() }
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
        #expect(!shot.isResolved)
    }

    @Test func closeAllEndsACallInFlightOnce() async throws {
        let calls = InFlightCalls()
        calls.reopen()
        let started = OneShot<Void>()
        let call = Task {
            try await calls.run {
                started.succeed(())
                try await Task.sleep(for: .seconds(30))
                return 1
            }
        }
        try await started.value()
        #expect(calls.count == 1)
        calls.closeAll(AIBudsError(.deviceNotConnected, "gone"))
        let error = await #expect(throws: AIBudsError.self) { try await call.value }
        #expect(error?.code == .deviceNotConnected)
        #expect(calls.count == 0)
        await #expect(throws: AIBudsError.self) { try await calls.run { 2 } }
        calls.reopen()
        #expect(try await calls.run { 3 } == 3)
    }

    @Test func completionRunsOnceOnTheCallbackQueue() async throws {
        let count = Locked(0)
        let done = OneShot<(Bool, NSNumber?, NSError?)>()
        AIBudsCall.run({ (success: Bool, code: NSNumber?, error: NSError?) in
            count.withLock { $0 += 1 }
            done.succeed((success, code, error))
        }) { () async throws -> NSNumber? in
            throw AIBudsError(.deviceBusy, "busy")
        }
        let (success, code, error) = try await done.value()
        #expect(!success && code == nil)
        #expect(error?.domain == AIBudsSDK.ErrorDomain)
        #expect(error?.code == SdkErrorCode.deviceBusy.rawValue)
        try await Task.sleep(for: .milliseconds(50))
        #expect(count.withLock { $0 } == 1)
    }

    @Test func timeoutThrowsTheGivenError() async {
        let error = await #expect(throws: AIBudsError.self) {
            try await withTimeout(.milliseconds(50), error: AIBudsError(.bleCommandExecFailedDueToTimeout)) {
                try await Task.sleep(for: .seconds(30))
            }
        }
        #expect(error?.code == .bleCommandExecFailedDueToTimeout)
    }
}
