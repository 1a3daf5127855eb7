import AIBudsFoundation
import AIBudsLog
import AIBudsSync
import AIBudsTestKit
import Foundation
import Testing
@testable import AIBuds

/// The suites that use the SDK's process-wide state (`AIBudsSDK`, `StoredDevicesMgr`, and what
/// SDK devices read from them) are nested here, in this file and others, and hold `SDKStateLock`
/// for each test (every test target uses that lock, see there): shared by default, for suites
/// that only use SDK devices (the import suites); exclusive for those that change the state (`Core`
/// below, `Emulators` in SMPDeviceTests.swift), which then run one at a time and alone among the
/// holders, each from an uninitialized SDK and leaving one behind.
@Suite(.sdkState(.shared)) struct SDKTests {}

extension SDKTests {
    /// `AIBudsSDK` itself: initialization, scanning, lifecycle events, stored devices, on a scripted link.
    @Suite(.sdkState(.exclusive)) struct Core {
        let log = RecordingLogService()
        let directory: URL

        init() throws {
            directory = try makeTemporaryDirectory("sdk")
        }

        private func configuration() -> SDKConfiguration {
            let configuration = SDKConfiguration.default()
            configuration.logService = log
            configuration.storedDevicesURL = directory.appendingPathComponent("devices.json")
            configuration.reconnectPolicy = ReconnectPolicy(maximumAttempts: 3, initialDelay: .milliseconds(50))
            configuration.connectTimeoutInSeconds = 2
            return configuration
        }

        @Test func initializeWithoutPluginFailsWithALoggedReason() {
            #expect(AIBudsSDK.initialize([], configuration: configuration()) == false)
            #expect(!AIBudsSDK.isInitialized)
            #expect(log.records.contains { $0.level == .error && $0.message.contains("at least one link plugin") })
        }

        @Test func initializeTwiceFailsWithALoggedReason() {
            let plugin = ScriptedPlugin([])
            #expect(AIBudsSDK.initialize([plugin], configuration: configuration()))
            #expect(AIBudsSDK.initialize([plugin]) == false)
            #expect(log.records.contains { $0.level == .error && $0.message.contains("already initialized") })
            #expect(AIBudsSDK.sdkVersionDescription.contains(AIBudsSDK.sdkVersion))
            #expect(plugin.sdkVersionDescription == "Scripted 1.0 (7), 2025-01-01")
            #expect(AIBudsSDK.ErrorDomain == "AIBudsSDK.ErrorDomain")
        }

        @Test func scanningBeforeInitializeFailsAndStops() async throws {
            let failed = OneShot<NSError?>()
            let observer = NotificationCenter.default.addObserver(forName: .scanningStartFailed, object: nil, queue: nil) {
                failed.succeed($0.userInfo?[AIBudsSDK.ErrorKey] as? NSError)
            }
            defer { NotificationCenter.default.removeObserver(observer) }
            let stopped = OneShot<Void>()
            AIBudsSDK.startScanning(1, completion: { stopped.succeed(()) })
            try await stopped.value()
            #expect(try await failed.value()?.code == SdkErrorCode.sdkNotInitialized.rawValue)
            #expect(!AIBudsSDK.isScanning())
        }

        @Test func scanReportsNewThenExistingDevicesAndStopsAtTheTimeout() async throws {
            let recorder = EventRecorder()
            let plugin = ScriptedPlugin([
                ScriptedPlugin.discovery("01", product: .glasses), ScriptedPlugin.discovery("02", product: .earbuds),
                ScriptedPlugin.discovery("03", product: .glasses, known: false),
            ])
            #expect(AIBudsSDK.initialize([plugin], configuration: configuration(), delegate: recorder))
            let reports = Locked<[(String, Bool)]>([])
            let notified = Locked<[Notification.Name]>([])
            let observers = [Notification.Name.scanningStart, .scanningStop, .deviceFound, .scanningCanceled].map { name in
                NotificationCenter.default.addObserver(forName: name, object: nil, queue: nil) { note in
                    notified.withLock { $0.append(note.name) }
                }
            }
            defer { observers.forEach(NotificationCenter.default.removeObserver) }
            let stops = Locked(0)
            let stopped = OneShot<Void>()
            let clock = ContinuousClock()
            let start = clock.now
            AIBudsSDK.startScanning(
                0.4,
                deviceFoundHandler: { device, isExisting in
                    reports.withLock { $0.append((device.peripheral.name ?? "", isExisting)) }
                },
                completion: {
                    stops.withLock { $0 += 1 }
                    stopped.succeed(())
                })
            #expect(AIBudsSDK.isScanning())
            try await stopped.value()
            let elapsed = clock.now - start
            // Stopped by its 0.4 s timeout: not before, and well before the default 10 s one.
            #expect(elapsed >= .milliseconds(400) && elapsed < .seconds(5))
            #expect(!AIBudsSDK.isScanning())
            let all = reports.withLock { $0 }
            #expect(Set(all.filter { !$0.1 }.map(\.0)) == ["Scripted-01", "Scripted-02"])
            #expect(all.filter { !$0.1 }.count == 2)
            #expect(all.contains { $0.0 == "Scripted-01" && $0.1 })
            #expect(!all.contains { $0.0 == "Scripted-03" })
            try await Task.sleep(for: .milliseconds(100))
            #expect(stops.withLock { $0 } == 1)
            #expect(recorder.scanEvents == ["scanning true", "scanning false"])
            let names = notified.withLock { $0 }
            #expect(names.first == .scanningStart && names.last == .scanningStop)
            #expect(names.filter { $0 == .deviceFound }.count == 2)
            #expect(!names.contains(.scanningCanceled))
        }

        @Test func scanWithoutTimeoutUsesTheConfiguredOne() async throws {
            let configuration = configuration()
            configuration.scanTimeoutInSeconds = 0.3
            #expect(AIBudsSDK.initialize([ScriptedPlugin([])], configuration: configuration))
            let stopped = OneShot<Void>()
            let clock = ContinuousClock()
            let start = clock.now
            AIBudsSDK.startScanning(completion: { stopped.succeed(()) })
            try await stopped.value()
            let elapsed = clock.now - start
            #expect(elapsed >= .milliseconds(300) && elapsed < .seconds(5))  // the default would be 10 s
        }

        @Test func stopScanningCancelsAndSecondScanIsRejected() async throws {
            #expect(AIBudsSDK.initialize([ScriptedPlugin([])], configuration: configuration()))
            let canceled = OneShot<Void>()
            let observer = NotificationCenter.default.addObserver(forName: .scanningCanceled, object: nil, queue: nil) { _ in
                canceled.succeed(())
            }
            defer { NotificationCenter.default.removeObserver(observer) }
            let first = OneShot<Void>()
            AIBudsSDK.startScanning(0, completion: { first.succeed(()) })
            let second = OneShot<Void>()
            let failure = OneShot<Int>()
            let failObserver = NotificationCenter.default.addObserver(forName: .scanningStartFailed, object: nil, queue: nil) {
                failure.succeed(($0.userInfo?[AIBudsSDK.ErrorKey] as? NSError)?.code ?? 0)
            }
            defer { NotificationCenter.default.removeObserver(failObserver) }
            AIBudsSDK.startScanning(5, completion: { second.succeed(()) })
            try await second.value()
            #expect(try await failure.value() == SdkErrorCode.scanningAlreadyRunning.rawValue)
            #expect(AIBudsSDK.isScanning())
            AIBudsSDK.stopScanning()
            try await first.value()
            try await canceled.value()
            #expect(!AIBudsSDK.isScanning())
        }

        @Test func discoveringAnAddressThrowsTheSDKsErrorWhateverThePluginThrew() async throws {
            struct VendorLinkDown: Error {}
            #expect(AIBudsSDK.initialize([ScriptedPlugin([], addressError: VendorLinkDown())], configuration: configuration()))
            do {
                _ = try await AIBudsSDK.discoverDevice(at: "udp://127.0.0.1:9")
                Issue.record("an unreachable address was found")
            } catch let error as AIBudsError {
                #expect(error.code == .peripheralUnavailable && error.underlying is VendorLinkDown, "\(error)")
                #expect(error.message.contains("udp://127.0.0.1:9"))
            }
        }

        @Test func storableDeviceClassFollowsTheProduct() throws {
            #expect(AIBudsSDK.initialize([ScriptedPlugin([])], configuration: configuration()))
            let plugin = ScriptedPlugin([])
            let discovery = ScriptedPlugin.discovery("05", product: .earbuds)
            let found = try #require(plugin.create(discovery.peripheral, advertisementData: discovery.advertisement.dictionary, rssi: -40))
            let device = try #require(AIBudsSDK.makeStorableDeviceFromDiscovered(found))
            #expect(device is ScriptedEarbuds)
            #expect(device.product == .earbuds)
            #expect(device.uuid == discovery.peripheral.identifier)
            #expect(StoredDevicesMgr.addDevice(device))
            #expect(AIBudsSDK.makeStorableDeviceFromDiscovered(found) === device)
        }

        @Test func onlyKnownDevicesAreReportedWhenConfigured() async throws {
            let configuration = configuration()
            configuration.onlyDiscoverKnownDevices = true
            let plugin = ScriptedPlugin([ScriptedPlugin.discovery("01", product: .glasses), ScriptedPlugin.discovery("02", product: .glasses)])
            #expect(AIBudsSDK.initialize([plugin], configuration: configuration))
            let known = ScriptedPlugin.discovery("02", product: .glasses)
            let found = try #require(plugin.create(known.peripheral, advertisementData: known.advertisement.dictionary, rssi: nil))
            StoredDevicesMgr.addDevice(try #require(AIBudsSDK.makeStorableDeviceFromDiscovered(found)))
            // Long enough for the scripted plugin to report both devices on a loaded machine.
            let devices = try await AIBudsSDK.scan(timeout: 1.5)
            #expect(devices.map(\.peripheral.name) == ["Scripted-02"])
        }

        @Test func lifecycleEventsArriveInOrderAndReconnectFollowsALoss() async throws {
            let sdkRecorder = EventRecorder()
            #expect(AIBudsSDK.initialize([ScriptedPlugin([])], configuration: configuration(), delegate: sdkRecorder))
            let device = try #require(ScriptedDevice(device: makeFoundDevice(mac: "AA:00:00:00:00:11")))
            let recorder = EventRecorder()
            device.delegate = recorder
            let params = ConnectParams()
            params.userId = "199"
            try await device.connectAndWait(params)
            #expect(device.deviceState == .idle && device.isConnectedAndReady)
            #expect(device.bindUserId == "199" && device.deviceModel == "SC-1")
            #expect(device.currentStatus.battery?.level == 80)
            try await eventually("recorder.events.count == 3") { recorder.events.count == 3 }
            #expect(recorder.events == ["connecting", "connected", "ready"])

            let session = try #require(ScriptedLinkRegistry.shared.sessions(mac: "AA:00:00:00:00:11").last)
            session.push(.battery(BatteryStatusInfoModel(level: 55, isCharging: true)), .workState(.recordingVideo))
            try await eventually("recorder.events.count == 5") { recorder.events.count == 5 }
            #expect(recorder.events.suffix(2) == ["battery 55", "workState recordingVideo"])
            #expect(device.currentStatus.workState == .recordingVideo)

            recorder.removeAll()
            session.breakLink()
            try await eventually("recorder.events.last == \"ready\"") { recorder.events.last == "ready" }
            #expect(recorder.events == ["disconnected 2006", "connecting", "connected", "ready"])
            #expect(ScriptedLinkRegistry.shared.sessions(mac: "AA:00:00:00:00:11").count == 2)

            recorder.removeAll()
            await device.disconnectAndWait()
            #expect(device.deviceState == .disconnected)
            try await eventually("recorder.events.count == 1") { recorder.events.count == 1 }
            #expect(recorder.events == ["disconnected 0"])
            try await eventually("sdkRecorder.events(of: device).count == 8") { sdkRecorder.events(of: device).count == 8 }
            #expect(sdkRecorder.events(of: device) == [
                "connecting", "connected", "ready", "disconnected 2006", "connecting", "connected", "ready", "disconnected 0",
            ])
        }

        @Test func reconnectGivesUpAfterThePolicyAndReportsTheFailure() async throws {
            #expect(AIBudsSDK.initialize([ScriptedPlugin([])], configuration: configuration()))
            let mac = "AA:00:00:00:00:12"
            let device = try #require(ScriptedDevice(device: makeFoundDevice(mac: mac)))
            let recorder = EventRecorder()
            device.delegate = recorder
            try await device.connectAndWait(ConnectParams())
            ScriptedLinkRegistry.shared.setUnreachable(mac, true)
            defer { ScriptedLinkRegistry.shared.setUnreachable(mac, false) }
            ScriptedLinkRegistry.shared.sessions(mac: mac).last?.breakLink()
            try await eventually("recorder.events.last?.hasPrefix(\"failed\") == true") { recorder.events.last?.hasPrefix("failed") == true }
            #expect(recorder.events == ["connecting", "connected", "ready", "disconnected 2006", "connecting", "failed 2001"])
            #expect(device.deviceState == .disconnected)
        }

        @Test func callInFlightCompletesOnceWhenTheDeviceDisconnects() async throws {
            #expect(AIBudsSDK.initialize([ScriptedPlugin([])], configuration: configuration()))
            let device = try #require(ScriptedDevice(device: makeFoundDevice(mac: "AA:00:00:00:00:13")))
            try await device.connectAndWait(ConnectParams())
            let calls = Locked<[NSError?]>([])
            let done = OneShot<Void>()
            AIBudsCall.run({ (success: Bool, error: NSError?) in
                calls.withLock { $0.append(error) }
                done.succeed(())
            }) {
                _ = try await device.run { try await $0.hang() }
            }
            try await eventually("device.calls.count == 1") { device.calls.count == 1 }
            device.disconnect()
            try await done.value()
            try await Task.sleep(for: .milliseconds(100))
            let errors = calls.withLock { $0 }
            #expect(errors.count == 1)
            #expect(errors.first??.code == SdkErrorCode.deviceNotConnected.rawValue)
            // Calls on a disconnected device fail at once.
            let error = await #expect(throws: AIBudsError.self) { try await device.run { _ in 1 } }
            #expect(error?.code == .deviceNotConnected)
        }

        @Test func storedDevicesManagerPersistsInTheBackground() async throws {
            let configuration = configuration()
            #expect(AIBudsSDK.initialize([ScriptedPlugin([])], configuration: configuration))
            let device = try #require(ScriptedDevice(device: makeFoundDevice(mac: "AA:00:00:00:00:21", product: .earbuds)))
            device.shouldAutoReconnectWhenAppLaunch = false
            #expect(StoredDevicesMgr.addDevice(device))
            #expect(!StoredDevicesMgr.addDevice(device))
            let saved = OneShot<(any Error)?>()
            StoredDevicesMgr.saveDevicesInBackgroundWithCompletion { saved.succeed($0) }
            #expect(try await saved.value() == nil)
            let url = try #require(configuration.storedDevicesURL)
            #expect(FileManager.default.fileExists(atPath: url.path))

            StoredDevicesMgr.resetForTesting()
            let loaded = OneShot<([any DeviceConvertible], (any Error)?)>()
            StoredDevicesMgr.loadDevicesInBackgroundWithCompletion { loaded.succeed(($0, $1)) }
            let (devices, error) = try await loaded.value()
            #expect(error == nil)
            #expect(devices.count == 1)
            #expect(devices.first is ScriptedEarbuds)
            #expect(StoredDevicesMgr.findDevice(byMacAddr: "aa:00:00:00:00:21")?.uuid == device.uuid)
            #expect(StoredDevicesMgr.findDevice(byPeripheral: device.peripheral) != nil)

            let restored = try #require(devices.first)
            restored.unpair()
            #expect(restored.isAlreadyUnbind)
            #expect(StoredDevicesMgr.allDevices.isEmpty)
        }
    }
}
