import AIBudsFoundation
import Foundation

/// The connection lifecycle of one device as a pure state machine.
///
/// `connecting → connected → initializing → ready`, `disconnecting → disconnected`, and
/// `waitingToReconnect` after an unexpected loss when the reconnect policy allows it. Event methods
/// return the actions the device performs (notify delegates, open or close the link, schedule a
/// reconnect); I/O happens outside. A connect asked for while the link is closing starts once it
/// has closed, so `disconnect()` followed by `connect()` ends connected. Every link attempt has a
/// number (`attempt` token), and results of an older attempt are ignored, so a late failure cannot
/// tear down a newer connection.
public struct DeviceLifecycle: Sendable {
    /// Where the device is.
    public enum State: Sendable, Equatable {
        /// No connection and none wanted.
        case disconnected
        /// Opening the link; `reconnectAttempt` is 0 for an app-initiated connect.
        case connecting(reconnectAttempt: Int)
        /// The link is up; initialization has not started.
        case connected(reconnectAttempt: Int)
        /// Reading the device's information over the link.
        case initializing(reconnectAttempt: Int)
        /// Ready for commands.
        case ready
        /// Closing the link at the app's request.
        case disconnecting
        /// The connection was lost; the next attempt is scheduled.
        case waitingToReconnect(attempt: Int)
    }

    /// Something that happened.
    public enum Event: Sendable {
        /// The app asked to connect.
        case connectRequested
        /// The link of attempt `token` is up.
        case linkOpened(token: UInt64)
        /// The device of attempt `token` is initialized.
        case initialized(token: UInt64)
        /// Opening or initializing attempt `token` failed (also a connect timeout).
        case attemptFailed(token: UInt64, error: AIBudsError)
        /// The link of attempt `token` was lost after it was up.
        case linkLost(token: UInt64, error: AIBudsError)
        /// The app asked to disconnect.
        case disconnectRequested
        /// The link closed after `disconnectRequested`.
        case linkClosed
        /// The reconnect delay for `attempt` elapsed.
        case reconnectTimerFired(attempt: Int)
    }

    /// What the device must do, in order.
    public enum Action: Sendable, Equatable {
        /// Tell delegates that connecting started.
        case notifyStartConnecting
        /// Tell delegates that the link is up.
        case notifyConnected
        /// Tell delegates that the device is ready.
        case notifyReady
        /// Tell delegates that connecting failed.
        case notifyFailed(AIBudsError)
        /// Tell delegates that the device disconnected (`nil`: at the app's request).
        case notifyDisconnected(AIBudsError?)
        /// Open the link for attempt `token`.
        case openLink(token: UInt64)
        /// Initialize the device over the link of attempt `token`.
        case initialize(token: UInt64)
        /// Start following the device's events on the link of attempt `token`.
        case startEvents(token: UInt64)
        /// Close the link and fail calls in flight with `error`.
        case closeLink(AIBudsError)
        /// Wait `delay`, then send `reconnectTimerFired(attempt:)`.
        case scheduleReconnect(attempt: Int, delay: Duration)
        /// Drop the scheduled reconnect.
        case cancelReconnect
    }

    /// Where the connection stands; only the event methods move it.
    public private(set) var state: State = .disconnected
    /// The reconnect policy applied to unexpected losses.
    public var policy: ReconnectPolicy
    /// The token of the current link attempt.
    public private(set) var token: UInt64 = 0
    /// Whether a connect was asked for while disconnecting; it starts when the link has closed.
    public private(set) var connectAfterClose = false

    /// Creates a disconnected lifecycle.
    public init(policy: ReconnectPolicy) {
        self.policy = policy
    }

    /// The state as the public `DeviceState` (`busy` is decided by the device).
    public var deviceState: DeviceState {
        switch state {
        case .disconnected, .waitingToReconnect: .disconnected
        case .connecting: .connecting
        case .connected: .connected
        case .initializing: .initializing
        case .ready: .idle
        case .disconnecting: .disconnecting
        }
    }

    /// The state as the link's `PeripheralState`.
    public var peripheralState: PeripheralState {
        switch state {
        case .disconnected, .waitingToReconnect: .disconnected
        case .connecting: .connecting
        case .connected, .initializing, .ready: .connected
        case .disconnecting: .disconnecting
        }
    }

    /// Applies an event and returns the actions to perform, in order.
    public mutating func handle(_ event: Event) -> [Action] {
        switch (state, event) {
        case (.disconnected, .connectRequested):
            return startAttempt(reconnectAttempt: 0, notify: true)
        case (.waitingToReconnect, .connectRequested):
            return [.cancelReconnect] + startAttempt(reconnectAttempt: 0, notify: true)
        case (.disconnecting, .connectRequested):
            connectAfterClose = true
            return []
        case (.disconnecting, .disconnectRequested):
            connectAfterClose = false
            return []
        case (_, .connectRequested):
            return []

        case (.connecting(let attempt), .linkOpened(let t)) where t == token:
            state = .initializing(reconnectAttempt: attempt)
            return [.notifyConnected, .initialize(token: token)]

        case (.initializing, .initialized(let t)) where t == token:
            state = .ready
            return [.notifyReady, .startEvents(token: token)]

        case (.connecting(let attempt), .attemptFailed(let t, let error)) where t == token,
             (.connected(let attempt), .attemptFailed(let t, let error)) where t == token,
             (.initializing(let attempt), .attemptFailed(let t, let error)) where t == token,
             (.connecting(let attempt), .linkLost(let t, let error)) where t == token,
             (.connected(let attempt), .linkLost(let t, let error)) where t == token,
             (.initializing(let attempt), .linkLost(let t, let error)) where t == token:
            return attemptFailed(reconnectAttempt: attempt, error: error)

        case (.ready, .linkLost(let t, let error)) where t == token:
            if let delay = policy.delay(beforeAttempt: 1) {
                state = .waitingToReconnect(attempt: 1)
                return [.closeLink(error), .notifyDisconnected(error), .scheduleReconnect(attempt: 1, delay: delay)]
            }
            state = .disconnected
            return [.closeLink(error), .notifyDisconnected(error)]

        case (.waitingToReconnect(let attempt), .reconnectTimerFired(let fired)) where fired == attempt:
            return startAttempt(reconnectAttempt: attempt, notify: attempt == 1)

        case (.ready, .disconnectRequested):
            state = .disconnecting
            return [.closeLink(AIBudsError(.deviceNotConnected, "the device was disconnected"))]
        case (.connecting, .disconnectRequested), (.connected, .disconnectRequested),
             (.initializing, .disconnectRequested):
            state = .disconnected
            let error = AIBudsError(.operationCanceled, "connecting was canceled by disconnect()")
            return [.closeLink(error), .notifyFailed(error)]
        case (.waitingToReconnect, .disconnectRequested):
            state = .disconnected
            return [.cancelReconnect]

        case (.disconnecting, .linkClosed):
            state = .disconnected
            guard connectAfterClose else { return [.notifyDisconnected(nil)] }
            connectAfterClose = false
            return [.notifyDisconnected(nil)] + startAttempt(reconnectAttempt: 0, notify: true)

        default:
            return []
        }
    }

    private mutating func startAttempt(reconnectAttempt: Int, notify: Bool) -> [Action] {
        token += 1
        state = .connecting(reconnectAttempt: reconnectAttempt)
        return (notify ? [.notifyStartConnecting] : []) + [.openLink(token: token)]
    }

    private mutating func attemptFailed(reconnectAttempt: Int, error: AIBudsError) -> [Action] {
        if reconnectAttempt > 0, let delay = policy.delay(beforeAttempt: reconnectAttempt + 1) {
            state = .waitingToReconnect(attempt: reconnectAttempt + 1)
            return [.closeLink(error), .scheduleReconnect(attempt: reconnectAttempt + 1, delay: delay)]
        }
        state = .disconnected
        return [.closeLink(error), .notifyFailed(error)]
    }
}
