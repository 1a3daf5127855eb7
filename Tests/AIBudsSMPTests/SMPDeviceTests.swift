@testable import AIBuds
import AIBudsEmulator
import AIBudsFoundation
import AIBudsLog
import AIBudsSMP
import AIBudsSync
import AIBudsTestKit
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension SDKTests {
    /// The SMP plugin and devices against real emulators over UDP.
    @Suite(.sdkState(.exclusive)) struct Emulators {
        let fixture: EmulatorFixture

        init() throws {
            fixture = try EmulatorFixture("emulators")
        }

        private func initialize(delegate: (any SDKDelegate)? = nil, _ adjust: (SDKConfiguration) -> Void = { _ in }) {
            let configuration = fixture.configuration()
            adjust(configuration)
            #expect(AIBudsSDK.initialize([fixture.plugin()], configuration: configuration, delegate: delegate))
        }

        @Test func twoEmulatorsAreFoundInOneScanAndRepeatsAreMarked() async throws {
            defer { fixture.remove() }
            let glasses = try fixture.start(.glasses, name: "Scan Glasses")
            let earbuds = try fixture.start(.earbuds, name: "Scan Buds")
            defer { glasses.stop(); earbuds.stop() }
            initialize()
            let reports = Locked<[(any FoundDeviceConvertible, Bool)]>([])
            let stopped = OneShot<Void>()
            AIBudsSDK.startScanning(1.2, deviceFoundHandler: { device, existing in
                reports.withLock { $0.append((device, existing)) }
            }, completion: { stopped.succeed(()) })
            try await stopped.value()
            let all = reports.withLock { $0 }
            let first = all.filter { !$0.1 }.map(\.0)
            #expect(Set(first.compactMap(\.name)) == ["Scan Glasses", "Scan Buds"])
            #expect(all.contains { $0.1 && $0.0.name == "Scan Glasses" })
            let g = try #require(first.first { $0.name == "Scan Glasses" })
            #expect(g.product == .glasses)
            #expect(g.protocolKind == .smp)
            #expect(g.RSSI?.intValue == DeviceProfile.glasses.rssi)
            #expect(g.macAddress == glasses.emulator.device.identity.mac)
            #expect(g.peripheral.address.description == glasses.url)
            #expect(g.manufacturerData?.count == 11)
            #expect((g.advertisementData?[AdvertisementDataKey.localName] as? String) == "Scan Glasses")
            let b = try #require(first.first { $0.name == "Scan Buds" })
            #expect(b.product == .earbuds && b.RSSI?.intValue == DeviceProfile.earbuds.rssi)
        }

        @Test func architectureSeedSnippetsRunAgainstTheEmulator() async throws {
            defer { fixture.remove() }
            let running = try fixture.start(.glasses, name: "Seed Glasses")
            defer { running.stop() }
            let sdkEvents = EventRecorder()
            initialize(delegate: sdkEvents)
            let device = try await fixture.device(named: "Seed Glasses")
            let events = EventRecorder()
            device.delegate = events
            let configs = ["STARBURST_PRODUCTID": "sb-product-1", "MLTCLOUD_CHANNELID": "mlt-channel-9"]

            // The connection snippet of the vendor's architecture overview (verbatim in AIBudsTestKit).
            let params = architectureSeedConnectParams(configs)

            device.connect(params)

            try await eventually("device.isConnectedAndReady") { device.isConnectedAndReady }
            #expect(device.connectContext?.aiAuthParams?.starburst?.productId == "sb-product-1")
            #expect(device.bindUserId == "199")

            // The capability snippet: set the device time through DeviceInfoAPI.
            let result = OneShot<(Bool, NSNumber?, NSError?)>()
            let target = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z
            if let info = device as? DeviceInfoAPI {
                info.setDeviceTime(target) { success, statusCode, error in
                    result.succeed((success, statusCode, error))
                }
            }
            if let anc = device as? DeviceANCAPI {
                anc.setAncMode(.ancOn) { _ in }
            }
            let (success, statusCode, error) = try await result.value()
            #expect(success && statusCode == 0 && error == nil)
            let info = try #require(device as? DeviceInfoAPI)
            let clock = try await info.requestQueryDeviceTime()
            #expect(abs(clock.timeIntervalSince(target)) < 5)

            await device.disconnectAndWait()
            try await eventually("events.events.count == 4 && sdkEvents.events(of: device).count == 4") { events.events.count == 4 && sdkEvents.events(of: device).count == 4 }
            #expect(events.events == ["connecting", "connected", "ready", "disconnected 0"])
            #expect(sdkEvents.events(of: device) == events.events)
            #expect(sdkEvents.scanEvents == ["scanning true", "scanning false"])
        }

        @Test func capabilitiesFollowTheProfile() async throws {
            defer { fixture.remove() }
            let emulators = try [
                fixture.start(.glasses, name: "Cap Glasses"), fixture.start(.earbuds, name: "Cap Buds"),
                fixture.start(.watch, name: "Cap Watch"),
            ]
            defer { emulators.forEach { $0.stop() } }
            initialize()
            let devices = try await fixture.devices(named: ["Cap Glasses", "Cap Buds", "Cap Watch"])
            let (glasses, buds, watch) = (devices[0], devices[1], devices[2])
            #expect(glasses is SMPGlassesDevice && buds is SMPEarbudsDevice && watch is SMPWatchDevice)
            for device in [glasses, buds, watch] {
                #expect(device is any DeviceInfoAPI)
                #expect(device is any DeviceCommonAPI)
                #expect(device is any DeviceAudioRecordingAPI)
                #expect((device is any DeviceANCAPI) == (device is SMPEarbudsDevice))
            }
            #expect(glasses is any DeviceCameraAPI && glasses is any DeviceHotspotAPI)
            #expect(!(buds is any DeviceCameraAPI) && !(buds is any DeviceHotspotAPI))
            #expect(!(watch is any DeviceCameraAPI) && !(watch is any DeviceHotspotAPI))

            try await buds.connectAndWait(ConnectParams())
            let base = try #require(buds as? SMPDevice)
            #expect(base.capabilities == Set(DeviceProfile.earbuds.capabilities.map(DeviceCapability.init(rawValue:))))
            // A command the device lacks fails with deviceNotSupport without reaching it.
            let error = await #expect(throws: AIBudsError.self) { try await base.requestPhotoTaking(withCaptureMode: .single) }
            #expect(error?.code == .deviceNotSupport)
            await buds.disconnectAndWait()
        }

        @Test func deviceInfoCaptureAndStateChangesOverTheWire() async throws {
            defer { fixture.remove() }
            let running = try fixture.start(.glasses, name: "Wire Glasses")
            defer { running.stop() }
            initialize()
            let device = try await fixture.device(named: "Wire Glasses")
            let events = EventRecorder()
            device.delegate = events
            try await device.connectAndWait(ConnectParams())
            let info = try #require(device as? DeviceInfoAPI)
            let camera = try #require(device as? DeviceCameraAPI)
            let audio = try #require(device as? DeviceAudioRecordingAPI)

            let battery = try await info.requestQueryBatteryStatus()
            #expect((0...100).contains(battery.level.intValue))
            let before = try await info.requestQueryMediaCountInfo()
            #expect(before == info.mediaCountInfo)
            #expect(before.photoCount == 2 && before.videoCount == 2 && before.audioCount == 1)
            #expect(try await info.requestQueryStorageInfo().freeSpaceInMB.intValue > 0)
            #expect(info.supportedLanguages.contains("ja"))
            #expect(try await info.setDeviceLanguage("ja") == 0)
            #expect(try await info.requestQueryLanguage() == "ja")
            await #expect(throws: AIBudsError.self) { try await info.setDeviceLanguage("xx-unknown") }

            let photo = try await camera.requestPhotoTaking(withCaptureMode: .single)
            #expect(!photo.isEmpty)
            try await eventually("events.events.contains { $0.hasPrefix(\"mediaCount photos 3\") }") { events.events.contains { $0.hasPrefix("mediaCount photos 3") } }
            #expect(try await camera.requestVideoRecording() == 0)
            let busy = await #expect(throws: AIBudsError.self) { try await camera.requestVideoRecording() }
            #expect(busy?.code == .deviceBusy)
            #expect(busy?.deviceStatusCode == 5)
            let video = try await camera.requestStopVideoRecording()
            #expect(video != photo)
            #expect(try await audio.requestStartAudioRecording() == 0)
            _ = try await audio.requestStopAudioRecording()
            let after = try await info.requestQueryMediaCountInfo()
            #expect(after.photoCount == 3 && after.videoCount == 3 && after.audioCount == 2)
            #expect(try await audio.setMaxAudioRecordDuration(90) == 0)
            #expect(audio.maxAudioRecordDuration == 90)
            #expect(try await camera.setMaxVideoRecordDuration(30) == 0)
            #expect(try await camera.requestQueryMaxVideoRecordDuration() == 30)

            let hotspot = try #require(device as? DeviceHotspotAPI)
            #expect(try await hotspot.configureHotspot(withMode: .ap, channel: 6, ssid: "Wire", password: "wire-secret-1") == 0)
            try await hotspot.enterFileTransferMode()
            try await eventually("the hotspot to open") {
                (try? await hotspot.requestQueryHotspotStatus())?.state == .hotspotOpen
            }
            let status = try await hotspot.requestQueryHotspotStatus()
            #expect(status.baseUrl?.hasPrefix("http://127.0.0.1:") == true && status.token != nil)
            #expect(!"\(status)".contains(status.token ?? "-"))
            try await hotspot.leaveFileTransferMode()

            let work = try #require(device as? DeviceWorkStateAPI)
            _ = try await work.requestQueryWorkState()
            let common = try #require(device as? DeviceCommonAPI)
            let reset = OneShot<(Bool, NSError?)>()
            common.factoryReset { reset.succeed(($0, $1)) }
            #expect(try await reset.value().0)
            let cleared = try await info.requestQueryMediaCountInfo()
            #expect(cleared.photoCount == 0 && cleared.videoCount == 0 && cleared.audioCount == 0)

            events.removeAll()
            try await common.powerOff()
            try await eventually("events.events.contains(\"disconnected 0\")") { events.events.contains("disconnected 0") }
            #expect(device.deviceState == .disconnected)
            let probe = await #expect(throws: AIBudsError.self) {
                try await AIBudsSDK.discoverDevice(at: running.url)
            }
            #expect(probe?.code == .bleCommandExecFailedDueToTimeout)
        }

        @Test func reconnectsAfterTheEmulatorRestarts() async throws {
            defer { fixture.remove() }
            var running = try fixture.start(.earbuds, name: "Restart Buds")
            initialize()
            let device = try await fixture.device(named: "Restart Buds")
            let events = EventRecorder()
            device.delegate = events
            try await device.connectAndWait(ConnectParams())
            running.stop()
            try await eventually("events.events.contains { $0.hasPrefix(\"disconnected\") }") { events.events.contains { $0.hasPrefix("disconnected") } }
            try await Task.sleep(for: .milliseconds(300))
            running = try fixture.start(.earbuds, name: "Restart Buds", port: running.address.port)
            defer { running.stop() }
            try await eventually("events.events.last == \"ready\"") { events.events.last == "ready" }
            // The link's error: the datagrams were refused (2003) or got no answer (2006).
            let lost = events.events.first(where: { $0.hasPrefix("disconnected") })
            #expect(lost == "disconnected 2003" || lost == "disconnected 2006")
            #expect(Array(events.events.suffix(3)) == ["connecting", "connected", "ready"])
            let info = try #require(device as? DeviceInfoAPI)
            #expect(try await info.requestQueryBatteryStatus().level.intValue >= 0)
            await device.disconnectAndWait()
        }

        @Test func followsAnEmulatorThatRestartedOnAnotherPort() async throws {
            defer { fixture.remove() }
            var running = try fixture.start(.watch, name: "Moving Watch")
            initialize()
            let device = try await fixture.device(named: "Moving Watch")
            let events = EventRecorder()
            device.delegate = events
            try await device.connectAndWait(ConnectParams())
            let oldAddress = device.peripheral.address
            running.stop()
            try await eventually("events.events.contains { $0.hasPrefix(\"disconnected\") }") { events.events.contains { $0.hasPrefix("disconnected") } }
            running = try fixture.start(.watch, name: "Moving Watch")
            defer { running.stop() }
            try await eventually("events.events.last == \"ready\"") { events.events.last == "ready" }
            #expect(device.peripheral.address != oldAddress)
            #expect(device.peripheral.address.description == running.url)
            await device.disconnectAndWait()
        }

        @Test func resultsAreCorrectOverALossyBLELink() async throws {
            defer { fixture.remove() }
            let running = try fixture.start(.glasses, name: "Lossy Glasses", link: .ble, faults: ["lose=0.2", "seed=7"])
            defer { running.stop() }
            initialize { $0.commandTimeoutInSeconds = 2 }
            let device = try await AIBudsSDK.makeStorableDeviceFromDiscovered(AIBudsSDK.discoverDevice(at: running.url))
            let glasses = try #require(device)
            try await glasses.connectAndWait(ConnectParams())
            let info = try #require(glasses as? DeviceInfoAPI)
            let camera = try #require(glasses as? DeviceCameraAPI)
            let target = Date(timeIntervalSince1970: 1_800_000_000)
            #expect(try await info.setDeviceTime(to: target) == 0)
            #expect(abs(try await info.requestQueryDeviceTime().timeIntervalSince(target)) < 10)
            let before = try await info.requestQueryMediaCountInfo()
            for _ in 0..<5 {
                _ = try await camera.requestPhotoTaking(withCaptureMode: .single)
            }
            let after = try await info.requestQueryMediaCountInfo()
            #expect(after.photoCount.intValue == before.photoCount.intValue + 5)
            for _ in 0..<10 {
                #expect(try await info.requestQueryMediaCountInfo() == after)
            }
            await glasses.disconnectAndWait()
        }

        @Test func commandTimesOutWhenTheEmulatorIsStopped() async throws {
            defer { fixture.remove() }
            let process = try await EmulatorProcess.start(profile: "earbuds", name: "Frozen Buds", runtime: fixture.directory)
            defer { process.terminate() }
            // Above the default 5 s, so that the lower bound shows the configured timeout is used,
            // with an upper bound no loaded machine reaches.
            let timeout = Duration.seconds(6)
            initialize {
                $0.reconnectPolicy = .never
                $0.commandTimeoutInSeconds = 6
            }
            let found = try await AIBudsSDK.discoverDevice(at: process.address)
            let device = try #require(AIBudsSDK.makeStorableDeviceFromDiscovered(found))
            try await device.connectAndWait(ConnectParams())
            let info = try #require(device as? DeviceInfoAPI)
            #expect(try await info.requestQueryBatteryStatus().level.intValue >= 0)

            try await process.freeze()
            let clock = ContinuousClock()
            let start = clock.now
            let calls = Locked(0)
            let result = OneShot<NSError?>()
            info.requestQueryStorageInfo { _, error in
                calls.withLock { $0 += 1 }
                result.succeed(error)
            }
            let error = try await result.value()
            let elapsed = clock.now - start
            #expect(error?.code == SdkErrorCode.bleCommandExecFailedDueToTimeout.rawValue)
            #expect(elapsed >= timeout * 0.9 && elapsed < timeout * 3)

            // A call in flight when the app disconnects ends at once, exactly once: well before its
            // timeout, now 30 s (the configuration is read per command).
            AIBudsSDK.sdkConfiguration.commandTimeoutInSeconds = 30
            let second = OneShot<NSError?>()
            let secondCalls = Locked(0)
            let disconnectStart = clock.now
            info.requestQueryMediaCountInfo { _, error in
                secondCalls.withLock { $0 += 1 }
                second.succeed(error)
            }
            let base = try #require(device as? BaseDevice)
            try await eventually("the media count request to be in flight") { base.calls.count == 1 }
            device.disconnect()
            #expect(try await second.value()?.code == SdkErrorCode.deviceNotConnected.rawValue)
            #expect(clock.now - disconnectStart < .seconds(15))
            kill(process.pid, SIGCONT)
            // The resumed emulator handles the datagrams that waited for it in order: once it has
            // answered a new connection's request, it has answered the old ones, and the callbacks
            // those answers could cause are queued before the drain below.
            try await device.connectAndWait(ConnectParams())
            #expect(try await info.requestQueryBatteryStatus().level.intValue >= 0)
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                AIBudsCall.callbackQueue.async { done.resume() }
            }
            #expect(calls.withLock { $0 } == 1)
            #expect(secondCalls.withLock { $0 } == 1)
            await device.disconnectAndWait()
        }

        @Test func aConnectRightAfterADisconnectEndsConnected() async throws {
            defer { fixture.remove() }
            let running = try fixture.start(.earbuds, name: "Quick Buds")
            defer { running.stop() }
            initialize { $0.reconnectPolicy = .never }
            let device = try await fixture.device(named: "Quick Buds")
            try await device.connectAndWait(ConnectParams())
            // Asked for while the old link is still closing: it starts once that link has closed.
            device.disconnect()
            try await device.connectAndWait(ConnectParams())
            let info = try #require(device as? DeviceInfoAPI)
            #expect(try await info.requestQueryBatteryStatus().level.intValue >= 0)
            await device.disconnectAndWait()
        }

        @Test func storedSMPDevicesRestoreTheirClassAndReconnect() async throws {
            defer { fixture.remove() }
            let running = try fixture.start(.glasses, name: "Stored Glasses")
            defer { running.stop() }
            initialize { $0.shouldAutoReconnectWhenAppLaunch = true }
            let device = try await fixture.device(named: "Stored Glasses")
            device.screenName = "My glasses"
            device.save()
            let saved = OneShot<(any Error)?>()
            StoredDevicesMgr.saveDevicesInBackgroundWithCompletion { saved.succeed($0) }
            #expect(try await saved.value() == nil)

            AIBudsSDK.resetForTesting()
            initialize { $0.shouldAutoReconnectWhenAppLaunch = true }
            let loaded = try await StoredDevicesMgr.loadDevices()
            let restored = try #require(loaded.first)
            #expect(restored is SMPGlassesDevice)
            #expect(restored.name == "My glasses")
            #expect(restored.uuid == device.uuid)
            try await eventually("restored.isConnectedAndReady") { restored.isConnectedAndReady }
            #expect(restored.deviceModel == DeviceProfile.glasses.model)
            await restored.disconnectAndWait()
        }

        @Test func packetIntervalAndCommandTimeoutTakeEffect() async throws {
            defer { fixture.remove() }
            let running = try fixture.start(.earbuds, name: "Paced Buds")
            defer { running.stop() }
            initialize { $0.bluetoothDataPacketIntervalInMilliseconds = 100 }
            let found = try await AIBudsSDK.discoverDevice(at: running.url)
            let device = try #require(AIBudsSDK.makeStorableDeviceFromDiscovered(found))
            try await device.connectAndWait(ConnectParams())
            let info = try #require(device as? DeviceInfoAPI)
            let clock = ContinuousClock()
            let start = clock.now
            for _ in 0..<5 { _ = try await info.requestQueryBatteryStatus() }
            #expect(clock.now - start >= .milliseconds(400))
            await device.disconnectAndWait()
        }
    }
}
