import AIBudsFoundation
import AIBudsLog
import Foundation

extension BaseDevice {
    // MARK: Lifecycle operations

    /// Starts connecting; progress arrives through the delegates. Ignored when already connecting or ready.
    public func connect(_ params: ConnectParams) {
        persisted.withLock { $0.connectContext = params }
        send(.connectRequested)
    }

    /// Closes the connection (or stops connecting, or stops waiting to reconnect).
    public func disconnect() {
        send(.disconnectRequested)
    }

    /// Connects and returns when the device is ready; throws why it could not be made ready.
    public func connectAndWait(_ params: ConnectParams) async throws {
        let waiter = OneShot<Void>()
        let ready = runtime.withLock { rt -> Bool in
            if rt.lifecycle.state == .ready { return true }
            rt.readyWaiters.append(waiter)
            return false
        }
        if ready { return }
        connect(params)
        try await waiter.value()
    }

    /// Calls ``disconnect()`` and waits until the lifecycle reaches `disconnected`; returns at once
    /// when it is there already.
    public func disconnectAndWait() async {
        let waiter = OneShot<Void>()
        let done = runtime.withLock { rt -> Bool in
            if rt.lifecycle.state == .disconnected { return true }
            rt.disconnectWaiters.append(waiter)
            return false
        }
        if done { return }
        disconnect()
        _ = try? await waiter.value()
    }

    /// Disconnects, marks the device unbound, and removes it from ``StoredDevicesMgr``.
    public func unpair() {
        disconnect()
        persisted.withLock {
            $0.isAlreadyUnbind = true
            $0.bindUserId = nil
            $0.userBindTime = nil
        }
        StoredDevicesMgr.removeDevice(self)
    }

    /// Stores the device's current fields (adding it to ``StoredDevicesMgr`` when it is not there) and
    /// saves the list in the background.
    public func save() {
        StoredDevicesMgr.storeDevice(self)
    }

    // MARK: State machine driver

    /// Feeds an event to the lifecycle and performs the resulting actions. Delegate notifications are
    /// queued under the lock, so they arrive in the order of the transitions.
    func send(_ event: DeviceLifecycle.Event) {
        let policy = AIBudsSDK.sdkConfiguration.reconnectPolicy
        var readyWaiters: [OneShot<Void>] = []
        var readyResult: Result<Void, any Error> = .success(())
        var disconnectWaiters: [OneShot<Void>] = []
        let (actions, state) = runtime.withLock { rt -> ([DeviceLifecycle.Action], DeviceLifecycle.State) in
            rt.lifecycle.policy = policy
            let actions = rt.lifecycle.handle(event)
            for action in actions {
                switch action {
                case .notifyReady:
                    readyWaiters = rt.readyWaiters
                    rt.readyWaiters.removeAll()
                case .notifyFailed(let error):
                    readyWaiters = rt.readyWaiters
                    rt.readyWaiters.removeAll()
                    readyResult = .failure(error)
                default:
                    break
                }
                enqueueNotification(for: action)
            }
            // A disconnect completes at `disconnected`, or when the closed link restarts at once
            // for a connect asked for meanwhile (`notifyDisconnected(nil)`).
            if rt.lifecycle.state == .disconnected || actions.contains(.notifyDisconnected(nil)) {
                disconnectWaiters = rt.disconnectWaiters
                rt.disconnectWaiters.removeAll()
            }
            if rt.lifecycle.state == .disconnected {
                if !rt.readyWaiters.isEmpty {
                    readyWaiters += rt.readyWaiters
                    rt.readyWaiters.removeAll()
                    readyResult = .failure(AIBudsError(.deviceNotConnected, "the device disconnected"))
                }
            }
            return (actions, rt.lifecycle.state)
        }
        if !actions.isEmpty {
            logger.log(.debug, "device", "\(name): \(event) -> \(state)")
        }
        for waiter in readyWaiters { waiter.resolve(readyResult) }
        for waiter in disconnectWaiters { waiter.succeed(()) }
        for action in actions { perform(action) }
    }

    private func enqueueNotification(for action: DeviceLifecycle.Action) {
        let notification: (@Sendable (any DeviceDelegate) -> Void, @Sendable (any SDKDelegate) -> Void)?
        switch action {
        case .notifyStartConnecting:
            notification = ({ $0.didStartConnectingDevice(self) }, { $0.didStartConnectingDevice(self) })
        case .notifyConnected:
            notification = ({ $0.didConnectedToDevice(self) }, { $0.didConnectedToDevice(self) })
        case .notifyReady:
            notification = ({ $0.deviceDidReady(self) }, { $0.deviceDidReady(self) })
        case .notifyFailed(let error):
            let ns = error.nsError
            notification = ({ $0.didFailToConnectDevice(self, error: ns) }, { $0.didFailToConnectDevice(self, error: ns) })
        case .notifyDisconnected(let error):
            let ns = error?.nsError
            notification = ({ $0.device(self, didDisconnectWithError: ns) }, { $0.device(self, didDisconnectWithError: ns) })
        default:
            notification = nil
        }
        guard let (toDevice, toSDK) = notification else { return }
        AIBudsCall.deliver {
            if let delegate = self.delegate { toDevice(delegate) }
            if let delegate = AIBudsSDK.delegate { toSDK(delegate) }
        }
    }

    private func perform(_ action: DeviceLifecycle.Action) {
        switch action {
        case .openLink(let token):
            openLink(token: token)
        case .initialize(let token):
            initialize(token: token)
        case .startEvents(let token):
            startEvents(token: token)
        case .closeLink(let error):
            closeLink(error)
        case .scheduleReconnect(let attempt, let delay):
            logger.log(.info, "device", "\(name): reconnect attempt \(attempt) in \(delay)")
            spawn(\.reconnectTask) {
                try? await Task.sleep(for: delay)
                guard !Task.isCancelled else { return }
                self.send(.reconnectTimerFired(attempt: attempt))
            }
        case .cancelReconnect:
            runtime.withLock { $0.reconnectTask }?.cancel()
        case .notifyStartConnecting, .notifyConnected, .notifyReady, .notifyFailed, .notifyDisconnected:
            break
        }
    }

    private func openLink(token: UInt64) {
        let params = connectContext ?? ConnectParams()
        let timeout = AIBudsSDK.sdkConfiguration.connectTimeout
        spawn(\.attemptTask) {
            do {
                let session = try await self.openSession(for: params)
                let current = self.runtime.withLock { rt -> Bool in
                    guard rt.lifecycle.token == token, case .connecting = rt.lifecycle.state else { return false }
                    rt.session = session
                    return true
                }
                guard current else {
                    await session.close()
                    return
                }
                self.send(.linkOpened(token: token))
            } catch {
                self.send(.attemptFailed(token: token, error: AIBudsError.from(error)))
            }
        }
        spawn(\.connectTimer) {
            try? await Task.sleep(for: timeout)
            guard !Task.isCancelled else { return }
            self.send(.attemptFailed(
                token: token,
                error: AIBudsError(.peripheralUnavailable, "connecting to \(self.peripheral.address) timed out after \(timeout)")))
        }
    }

    /// Starts `body` as a task kept in `slot` (cancelling the task there). The task is created and
    /// stored under the lock, so anything it does with the lock happens after it is stored.
    private func spawn(
        _ slot: WritableKeyPath<Runtime, Task<Void, Never>?> & Sendable, _ body: @escaping @Sendable () async -> Void
    ) {
        runtime.withLock { rt in
            rt[keyPath: slot]?.cancel()
            rt[keyPath: slot] = Task { await body() }
        }
    }

    private func initialize(token: UInt64) {
        let params = connectContext
        spawn(\.attemptTask) {
            do {
                guard let session = self.runtime.withLock({ $0.lifecycle.token == token ? $0.session : nil }) else {
                    return
                }
                let identity = try await session.readIdentity()
                var events = try await session.readInitialState(capabilities: identity.capabilities)
                self.adopt(identity, userId: params?.userId)
                let authorized = await ServiceAuthorization.run(
                    device: self, params: params, capabilities: identity.capabilities
                ) { self.logger.log(.warning, "device", "\(self.name): \($0)") }
                if let authorized {
                    events += try await session.reportServiceAuthorization(success: authorized)
                }
                self.runtime.withLock { rt in
                    for event in events { rt.status.apply(event) }
                    rt.connectTimer?.cancel()
                    rt.connectTimer = nil
                }
                self.calls.reopen()
                self.send(.initialized(token: token))
                StoredDevicesMgr.deviceDidChange(self)
            } catch {
                self.send(.attemptFailed(token: token, error: AIBudsError.from(error)))
            }
        }
    }

    private func adopt(_ identity: DeviceIdentity, userId: String?) {
        let now = Date()
        persisted.withLock { fields in
            if fields.product != identity.product, identity.product != .unknown {
                fields.product = identity.product
            }
            fields.bluetoothName = identity.name
            fields.deviceModel = identity.model
            fields.deviceSerialNum = identity.serialNumber
            fields.firmwareVersion = identity.firmwareVersion
            fields.macAddress = identity.macAddress
            fields.capabilities = identity.capabilities
            fields.lastConnectTime = now
            fields.isAlreadyUnbind = false
            if let userId, fields.bindUserId != userId {
                fields.bindUserId = userId
                fields.userBindTime = now
            }
        }
    }

    private func startEvents(token: UInt64) {
        spawn(\.eventsTask) {
            while !Task.isCancelled {
                guard let session = self.runtime.withLock({ $0.lifecycle.token == token ? $0.session : nil }) else {
                    return
                }
                do {
                    let events = try await session.nextEvents()
                    if !events.isEmpty { self.apply(events, notify: true) }
                } catch {
                    if Task.isCancelled { return }
                    self.logger.log(.warning, "device", "\(self.name): link lost: \(error)")
                    self.send(.linkLost(token: token, error: AIBudsError.from(error)))
                    return
                }
            }
        }
    }

    private func closeLink(_ error: AIBudsError) {
        let (session, tasks) = runtime.withLock { rt -> ((any DeviceSession)?, [Task<Void, Never>?]) in
            defer {
                rt.session = nil
                rt.attemptTask = nil
                rt.eventsTask = nil
                rt.connectTimer = nil
            }
            return (rt.session, [rt.attemptTask, rt.eventsTask, rt.connectTimer])
        }
        for task in tasks { task?.cancel() }
        calls.closeAll(error)
        Task {
            await session?.close()
            self.send(.linkClosed)
        }
    }

    // MARK: Events

    /// Applies state changes the device reported; with `notify`, the device's delegate hears of each,
    /// in order.
    public func apply(_ events: [DeviceStateEvent], notify: Bool) {
        for case .firmwareVersion(let version) in events {
            persisted.withLock { $0.firmwareVersion = version }
        }
        runtime.withLock { rt in
            var deliveries: [(DeviceStateEvent, Bool)] = []
            for event in events {
                let before = rt.status
                rt.status.apply(event)
                deliveries.append((event, Self.changesNamedValue(event, from: before)))
            }
            guard notify else { return }
            let ordered = deliveries
            AIBudsCall.deliver {
                guard let delegate = self.delegate else { return }
                for (event, changed) in ordered { self.dispatch(event, changed: changed, to: delegate) }
            }
        }
    }

    /// Whether `event` changes the value its specific delegate callback is named after (an `anc`
    /// event that only changes the gain is no `didAncModeChanged`); events of the device's own
    /// states always do.
    static func changesNamedValue(_ event: DeviceStateEvent, from before: DeviceStatus) -> Bool {
        switch event {
        case .workMode(let mode): return before.workMode != mode
        case .volume(let level, _): return before.volume != level
        case .equalizer(let mode, _, _): return before.equalizerMode != mode
        case .anc(let mode, _, _): return before.ancMode != mode
        case .wear(_, let status, _, _): return before.wearStatus != status
        case .tws(let value): return before.tws?.connectionState != value.connectionState
        default: return true
        }
    }

    private func dispatch(_ event: DeviceStateEvent, changed: Bool, to delegate: any DeviceDelegate) {
        defer { delegate.device(self, didReceiveStateEvent: event) }
        if !changed { return }
        switch event {
        case .battery(let value): delegate.device(self, didBatteryStatusChanged: value)
        case .workState(let value): delegate.device(self, didWorkStateChanged: value)
        case .storage(let value): delegate.device(self, didStorageInfoChanged: value)
        case .mediaCount(let value): delegate.device(self, didMediaCountInfoChanged: value)
        case .hotspotState(let value): delegate.device(self, didHotspotStateChanged: value)
        case .hotspotAddress(let value): delegate.device(self, didReceiveHotspotAddress: value)
        case .mediaChanged(let generation, let types): delegate.device(self, didMediaFilesChanged: generation, types: types)
        case .firmwareVersion(let value): delegate.device(self, didFirmwareVersionChanged: value)
        case .language(let value): delegate.device(self, didLanguageChanged: value)
        case .fileDeletingProgress(let value): delegate.device(self, didReceiveFileDeletingProgressEvent: value)
        case .workMode(let value): delegate.device(self, didWorkModeChanged: value)
        case .volume(let level, _): delegate.device(self, didVolumeChanged: NSNumber(value: level))
        case .equalizer(let mode, _, _): delegate.device(self, didEqualizerModeChanged: mode)
        case .anc(let mode, _, _): delegate.device(self, didAncModeChanged: mode)
        case .wear(_, let status, _, _): delegate.device(self, didWearStatusChanged: status)
        case .tws(let value): delegate.device(self, didTWSConnectionStateChanged: value.connectionState)
        case .supportedLanguages, .maxAudioRecordDuration, .maxVideoRecordDuration, .mediaSession,
            .physicalOperationMapping, .remoteShutter, .voiceAssistant, .apps, .serviceAuth, .teleprompter, .navigation,
            .navigationAlert, .findPhone, .cameraFirmwareVersion, .physicalOperation, .wakeWord, .remoteShutterPressed:
            break
        }
    }
}
