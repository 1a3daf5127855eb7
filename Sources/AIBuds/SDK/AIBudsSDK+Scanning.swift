import AIBudsFoundation
import AIBudsSync
import Foundation

extension AIBudsSDK {
    /// Starts scanning every plugin's link for devices.
    ///
    /// - Parameters:
    ///   - timeout: Seconds until the scan stops by itself; `nil` uses
    ///     `sdkConfiguration.scanTimeoutInSeconds`; zero or less scans until ``stopScanning()``.
    ///   - deviceFoundHandler: Called for every report; `isExistingDevice` is `true` for a device
    ///     already reported in this scan.
    ///   - completion: Called once when the scan stops, also when it cannot start.
    ///
    /// A scan that cannot start (SDK not initialized, a scan already running) posts
    /// `scanningStartFailed` with the error under `ErrorKey` and calls `completion`.
    public static func startScanning(
        _ timeout: NSNumber? = nil,
        deviceFoundHandler: AIBudsScanningOnDeviceFoundHandler? = nil,
        completion: AIBudsOnScanStopHandler? = nil
    ) {
        if let error = beginScan(timeout, deviceFoundHandler: deviceFoundHandler, completion: completion) {
            logger.log(.warning, "scan", "scan not started: \(error.message)")
            AIBudsCall.deliver {
                NotificationCenter.default.post(
                    name: .scanningStartFailed, object: nil, userInfo: [AIBudsSDK.ErrorKey: error.nsError])
                completion?()
            }
        }
    }

    /// Stops the running scan, if any: posts `scanningCanceled` and `scanningStop` and calls its completion.
    public static func stopScanning() {
        let session = state.withLock { state -> ScanSession? in
            defer { state.scan = nil }
            return state.scan
        }
        session?.finish(.canceled)
    }

    /// Whether a scan is running.
    public static func isScanning() -> Bool {
        state.withLock { $0.scan != nil }
    }

    /// Scans for `timeout` and returns every device found, one entry per peripheral (its latest report).
    ///
    /// Throws when the scan cannot start.
    public static func scan(timeout: Double) async throws -> [any FoundDeviceConvertible] {
        let found = Locked<[UUID: any FoundDeviceConvertible]>([:])
        let order = Locked<[UUID]>([])
        let done = OneShot<Void>()
        let error = beginScan(
            NSNumber(value: timeout),
            deviceFoundHandler: { device, isExisting in
                found.withLock { $0[device.peripheral.identifier] = device }
                if !isExisting { order.withLock { $0.append(device.peripheral.identifier) } }
            },
            completion: { done.succeed(()) })
        if let error { throw error }
        try await withTaskCancellationHandler {
            try await done.value()
        } onCancel: {
            stopScanning()
        }
        let devices = found.withLock { $0 }
        return order.withLock { $0 }.compactMap { devices[$0] }
    }

    /// Starts a scan; returns why it could not start.
    private static func beginScan(
        _ timeout: NSNumber?, deviceFoundHandler: AIBudsScanningOnDeviceFoundHandler?,
        completion: AIBudsOnScanStopHandler?
    ) -> AIBudsError? {
        let started: Result<(ScanSession, [any BleConnectSDK], SDKConfiguration), AIBudsError> = state.withLock { state in
            guard state.isInitialized, !state.plugins.isEmpty else {
                return .failure(AIBudsError(.sdkNotInitialized, "AIBudsSDK.initialize has not succeeded"))
            }
            guard state.scan == nil else { return .failure(AIBudsError(.scanningAlreadyRunning)) }
            let session = ScanSession(foundHandler: deviceFoundHandler, stopHandler: completion, delegate: state.delegate)
            state.scan = session
            return .success((session, state.plugins, state.configuration))
        }
        let session: ScanSession
        let plugins: [any BleConnectSDK]
        let configuration: SDKConfiguration
        switch started {
        case .failure(let error): return error
        case .success(let value): (session, plugins, configuration) = value
        }
        let seconds = timeout?.doubleValue ?? configuration.scanTimeoutInSeconds
        let onlyKnown = configuration.onlyDiscoverKnownDevices
        logger.log(.info, "scan", "scanning \(seconds > 0 ? "for \(seconds) s" : "until stopped")")
        AIBudsCall.deliver {
            NotificationCenter.default.post(name: .scanningStart, object: nil)
            session.delegate?.onScanningStatusChanged(true)
        }
        let task = Task {
            await withTaskGroup(of: Void.self) { group in
                for plugin in plugins {
                    group.addTask {
                        for await discovery in plugin.discoverPeripherals(options: DiscoveryOptions()) {
                            guard let device = makeFoundDevice(discovery, plugin: plugin) else { continue }
                            if onlyKnown, StoredDevicesMgr.findDevice(byPeripheral: device.peripheral) == nil,
                                device.macAddress.flatMap({ StoredDevicesMgr.findDevice(byMacAddr: $0) }) == nil
                            {
                                continue
                            }
                            session.report(device)
                        }
                    }
                }
                if seconds > 0 {
                    group.addTask {
                        try? await Task.sleep(for: .seconds(seconds))
                        guard !Task.isCancelled else { return }
                        endScan(session, .timeout)
                    }
                }
            }
        }
        session.attach(task)
        return nil
    }

    private static func makeFoundDevice(
        _ discovery: PeripheralDiscovery, plugin: any BleConnectSDK
    ) -> (any FoundDeviceConvertible)? {
        let advertisement = discovery.advertisement.dictionary
        let rssi = discovery.rssi.map { NSNumber(value: $0) }
        guard plugin.isKnownDevice(discovery.peripheral, advertisementData: advertisement, rssi: rssi) else {
            return nil
        }
        return plugin.create(discovery.central, discovery.peripheral, advertisementData: advertisement, rssi: rssi)
    }

    private static func endScan(_ session: ScanSession, _ reason: ScanSession.EndReason) {
        state.withLock { state in
            if state.scan === session { state.scan = nil }
        }
        session.finish(reason)
    }
}
