import AIBudsFoundation
import Testing
@testable import AIBuds

@Suite struct DeviceLifecycleTests {
    private let lost = AIBudsError(.bleCommandExecFailedDueToTimeout, "lost")
    private let policy = ReconnectPolicy(
        isEnabled: true, maximumAttempts: 2, initialDelay: .milliseconds(100), maximumDelay: .seconds(1))

    /// A machine that has handled `events`, their actions dropped.
    private func lifecycle(after events: [DeviceLifecycle.Event]) -> DeviceLifecycle {
        var machine = DeviceLifecycle(policy: policy)
        for event in events { _ = machine.handle(event) }
        return machine
    }

    @Test func connectInitializeReadyDisconnect() {
        var machine = DeviceLifecycle(policy: policy)
        #expect(machine.handle(.connectRequested) == [.notifyStartConnecting, .openLink(token: 1)])
        #expect(machine.deviceState == .connecting)
        #expect(machine.handle(.linkOpened(token: 1)) == [.notifyConnected, .initialize(token: 1)])
        #expect(machine.deviceState == .initializing)
        #expect(machine.peripheralState == .connected)
        #expect(machine.handle(.initialized(token: 1)) == [.notifyReady, .startEvents(token: 1)])
        #expect(machine.deviceState == .idle)
        #expect(machine.handle(.connectRequested) == [])
        let close = machine.handle(.disconnectRequested)
        #expect(close.count == 1)
        #expect(machine.deviceState == .disconnecting)
        #expect(machine.handle(.linkClosed) == [.notifyDisconnected(nil)])
        #expect(machine.state == .disconnected)
    }

    @Test func aConnectAskedForWhileDisconnectingStartsOnceTheLinkHasClosed() {
        var machine = lifecycle(after: [.connectRequested, .linkOpened(token: 1), .initialized(token: 1), .disconnectRequested])
        #expect(machine.handle(.connectRequested) == [])
        #expect(machine.deviceState == .disconnecting)
        #expect(machine.handle(.linkClosed)
            == [.notifyDisconnected(nil), .notifyStartConnecting, .openLink(token: 2)])
        #expect(machine.state == .connecting(reconnectAttempt: 0))
        #expect(machine.handle(.linkOpened(token: 2)) == [.notifyConnected, .initialize(token: 2)])

        // A second disconnect before the close withdraws the pending connect.
        _ = machine.handle(.initialized(token: 2))
        _ = machine.handle(.disconnectRequested)
        _ = machine.handle(.connectRequested)
        #expect(machine.handle(.disconnectRequested) == [])
        #expect(machine.handle(.linkClosed) == [.notifyDisconnected(nil)])
        #expect(machine.state == .disconnected)
    }

    @Test func firstConnectFailureIsReportedWithoutRetry() {
        var machine = DeviceLifecycle(policy: policy)
        _ = machine.handle(.connectRequested)
        let actions = machine.handle(.attemptFailed(token: 1, error: lost))
        #expect(actions == [.closeLink(lost), .notifyFailed(lost)])
        #expect(machine.state == .disconnected)
    }

    @Test func lossWhenReadyReconnectsWithBackoffThenGivesUp() {
        var machine = lifecycle(after: [.connectRequested, .linkOpened(token: 1), .initialized(token: 1)])
        #expect(machine.handle(.linkLost(token: 1, error: lost))
            == [.closeLink(lost), .notifyDisconnected(lost), .scheduleReconnect(attempt: 1, delay: .milliseconds(100))])
        #expect(machine.deviceState == .disconnected)
        // A late timer of another attempt is ignored.
        #expect(machine.handle(.reconnectTimerFired(attempt: 2)) == [])
        #expect(machine.handle(.reconnectTimerFired(attempt: 1)) == [.notifyStartConnecting, .openLink(token: 2)])
        #expect(machine.handle(.attemptFailed(token: 2, error: lost))
            == [.closeLink(lost), .scheduleReconnect(attempt: 2, delay: .milliseconds(200))])
        #expect(machine.handle(.reconnectTimerFired(attempt: 2)) == [.openLink(token: 3)])
        #expect(machine.handle(.attemptFailed(token: 3, error: lost)) == [.closeLink(lost), .notifyFailed(lost)])
        #expect(machine.state == .disconnected)
    }

    @Test func reconnectSucceeds() {
        var machine = lifecycle(after: [
            .connectRequested, .linkOpened(token: 1), .initialized(token: 1), .linkLost(token: 1, error: lost), .reconnectTimerFired(attempt: 1),
        ])
        #expect(machine.handle(.linkOpened(token: 2)) == [.notifyConnected, .initialize(token: 2)])
        #expect(machine.handle(.initialized(token: 2)) == [.notifyReady, .startEvents(token: 2)])
        #expect(machine.state == .ready)
    }

    @Test func staleResultsOfAnOlderAttemptAreIgnored() {
        var machine = lifecycle(after: [.connectRequested, .disconnectRequested, .connectRequested])
        #expect(machine.token == 2)
        #expect(machine.handle(.linkOpened(token: 1)) == [])
        #expect(machine.handle(.attemptFailed(token: 1, error: lost)) == [])
        #expect(machine.state == .connecting(reconnectAttempt: 0))
    }

    @Test func disconnectWhileConnectingFailsTheConnect() {
        var machine = DeviceLifecycle(policy: policy)
        _ = machine.handle(.connectRequested)
        let actions = machine.handle(.disconnectRequested)
        #expect(actions.count == 2)
        if case .notifyFailed(let error) = actions.last {
            #expect(error.code == .operationCanceled)
        } else {
            Issue.record("expected notifyFailed, got \(actions)")
        }
        #expect(machine.state == .disconnected)
    }

    @Test func disconnectWhileWaitingCancelsTheReconnect() {
        var machine = lifecycle(after: [.connectRequested, .linkOpened(token: 1), .initialized(token: 1), .linkLost(token: 1, error: lost)])
        #expect(machine.handle(.disconnectRequested) == [.cancelReconnect])
        #expect(machine.handle(.reconnectTimerFired(attempt: 1)) == [])
    }

    @Test func lossWithReconnectDisabledJustDisconnects() {
        var machine = DeviceLifecycle(policy: .never)
        _ = machine.handle(.connectRequested)
        _ = machine.handle(.linkOpened(token: 1))
        _ = machine.handle(.initialized(token: 1))
        #expect(machine.handle(.linkLost(token: 1, error: lost)) == [.closeLink(lost), .notifyDisconnected(lost)])
    }

    @Test func reconnectDelaysDoubleUpToTheMaximum() {
        let policy = ReconnectPolicy(maximumAttempts: 5, initialDelay: .milliseconds(250), maximumDelay: .seconds(1))
        #expect(policy.delay(beforeAttempt: 0) == nil)
        #expect(policy.delay(beforeAttempt: 1) == .milliseconds(250))
        #expect(policy.delay(beforeAttempt: 2) == .milliseconds(500))
        #expect(policy.delay(beforeAttempt: 3) == .seconds(1))
        #expect(policy.delay(beforeAttempt: 5) == .seconds(1))
        #expect(policy.delay(beforeAttempt: 6) == nil)
        #expect(ReconnectPolicy.never.delay(beforeAttempt: 1) == nil)
    }
}
