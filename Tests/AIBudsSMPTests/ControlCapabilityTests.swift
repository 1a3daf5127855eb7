@testable import AIBuds
import AIBudsEmulator
import AIBudsFoundation
import AIBudsLog
import AIBudsSMP
import AIBudsSync
import AIBudsTestKit
import AIBudsWire
import Foundation
import Testing

/// Records the control callbacks and every state event of one device.
final class ControlRecorder: DeviceDelegate {
    private let log = Locked<[String]>([])
    /// Every record, in order.
    var records: [String] { log.withLock { $0 } }
    func contains(_ record: String) -> Bool { records.contains(record) }
    private func record(_ text: String) { log.withLock { $0.append(text) } }

    func device(_ device: any DeviceConvertible, didAncModeChanged mode: AncMode) { record("anc \(mode)") }
    func device(_ device: any DeviceConvertible, didEqualizerModeChanged mode: EqualizerMode) { record("eq \(mode)") }
    func device(_ device: any DeviceConvertible, didWearStatusChanged status: WearStatus) { record("wear \(status)") }
    func device(_ device: any DeviceConvertible, didTWSConnectionStateChanged state: TWSConnectionState) {
        record("tws \(state)")
    }
    func device(_ device: any DeviceConvertible, didVolumeChanged volume: NSNumber) { record("volume \(volume)") }
    func device(_ device: any DeviceConvertible, didWorkModeChanged mode: WorkMode) { record("workMode \(mode)") }
    func device(_ device: any DeviceConvertible, didBatteryStatusChanged status: BatteryStatusInfoModel) {
        record("battery \(status.level)")
    }
    func device(_ device: any DeviceConvertible, didReceiveStateEvent event: DeviceStateEvent) {
        switch event {
        case .mediaSession(let session): record("media \(session.state) \(session.trackIndex)")
        case .physicalOperation(let side, let operation): record("press \(side) \(operation)")
        case .wakeWord(let word): record("wakeWord \(word)")
        case .remoteShutterPressed: record("shutterPressed")
        case .serviceAuth(let state, _): record("auth \(state)")
        case .teleprompter(let state): record("teleprompter \(state.isOpen) \(state.page)")
        case .navigation(let instruction): record("navigation \(instruction?.text ?? "none")")
        case .navigationAlert(let alert): record("alert \(alert.map { "\($0.kind) \($0.distanceInMeters.map(String.init) ?? "-")" } ?? "none")")
        case .findPhone(let searching): record("findPhone \(searching)")
        case .apps(let apps): record("apps \(apps.filter(\.isRunning).map(\.identifier))")
        default: break
        }
    }
}

/// Records the deletion progress events of one device.
final class DeletionRecorder: DeviceDelegate {
    private let log = Locked<[FileDeletingProgressEvent]>([])
    var events: [FileDeletingProgressEvent] { log.withLock { $0 } }
    func device(_ device: any DeviceConvertible, didReceiveFileDeletingProgressEvent event: FileDeletingProgressEvent) {
        log.withLock { $0.append(event) }
    }
}

extension SDKTests {
    /// Every capability protocol against the earbuds and glasses emulators over UDP (docs/protocol.md
    /// §3, "Controls").
    @Suite(.sdkState(.exclusive)) struct Controls {
        let fixture: EmulatorFixture

        init() throws {
            fixture = try EmulatorFixture("controls")
            #expect(AIBudsSDK.initialize([fixture.plugin()], configuration: fixture.configuration()))
        }

        /// Another client of the same emulator: a raw SMP session on its own socket.
        private func otherClient(_ running: EmulatorFixture.Running) throws -> SMPDeviceSession {
            try SMPDeviceSession(
                address: try #require(DeviceAddress(running.url)), commandTimeout: .seconds(2), eventWait: .seconds(1),
                logger: NullLogService())
        }

        private func expectDeviceCode(_ code: Int, _ body: () async throws -> Void) async {
            let error = await #expect(throws: AIBudsError.self) { try await body() }
            #expect(error?.deviceStatusCode == code)
        }

        @Test func conformanceFollowsTheProfile() async throws {
            defer { fixture.remove() }
            let emulators = try [
                fixture.start(.glasses, name: "Conf Glasses"), fixture.start(.earbuds, name: "Conf Buds"),
                fixture.start(.watch, name: "Conf Watch"),
            ]
            defer { emulators.forEach { $0.stop() } }
            let devices = try await fixture.devices(named: ["Conf Glasses", "Conf Buds", "Conf Watch"])
            let (glasses, buds, watch) = (devices[0], devices[1], devices[2])
            #expect(buds is any DeviceANCAPI && buds is any DeviceEqualizerAPI && buds is any DeviceVolumeControlAPI)
            #expect(buds is any DeviceWorkModeAPI && buds is any DeviceWearDetectionAPI && buds is any DeviceTWSAPI)
            #expect(buds is any DeviceMusicControlAPI && buds is any DevicePhysicalOperationsAPI)
            #expect(!(buds is any TeleprompterAPI) && !(buds is any DeviceAppsAPI))
            #expect(glasses is any DeviceRemoteShutterAPI && glasses is any DeviceAppsAPI && glasses is any DeviceServiceAuthAPI)
            #expect(glasses is any OnDeviceVoiceAssistantAPI && glasses is any TeleprompterAPI)
            #expect(glasses is any TurnByTurnNavigationAPI && glasses is any DevicePhysicalOperationsAPI)
            #expect(!(glasses is any DeviceANCAPI))
            for protocolCheck in [
                watch is any DeviceANCAPI, watch is any DeviceEqualizerAPI, watch is any DeviceVolumeControlAPI,
                watch is any DeviceWorkModeAPI, watch is any DeviceWearDetectionAPI, watch is any DeviceTWSAPI,
                watch is any DeviceMusicControlAPI, watch is any DeviceRemoteShutterAPI, watch is any DeviceAppsAPI,
                watch is any DeviceServiceAuthAPI, watch is any DevicePhysicalOperationsAPI,
                watch is any OnDeviceVoiceAssistantAPI, watch is any TeleprompterAPI, watch is any TurnByTurnNavigationAPI,
            ] {
                #expect(!protocolCheck)
            }
            // A command the device does not support: the SDK's clear error, without reaching it.
            try await watch.connectAndWait(ConnectParams())
            let base = try #require(watch as? SMPDevice)
            let refused = await #expect(throws: AIBudsError.self) { try await base.setAncMode(.ancOn) }
            #expect(refused?.code == .deviceNotSupport)
            // Asked anyway over the wire, the watch answers rc 4 (notSupported).
            let session = try otherClient(emulators[2])
            defer { Task { await session.close() } }
            let wire = await #expect(throws: AIBudsError.self) {
                _ = try await session.request(DeviceSettingReadRequest(name: DeviceSettingName.anc))
            }
            #expect(wire?.code == .deviceNotSupport && wire?.deviceStatusCode == 4)
            await watch.disconnectAndWait()
        }

        @Test func earbudsAudioControlsOverSockets() async throws {
            defer { fixture.remove() }
            let running = try fixture.start(.earbuds, name: "Ctl Buds")
            defer { running.stop() }
            let device = try await fixture.device(named: "Ctl Buds")
            try await device.connectAndWait(ConnectParams())
            defer { device.disconnect() }

            // Initial state read at connection.
            let anc = try #require(device as? DeviceANCAPI)
            let eq = try #require(device as? DeviceEqualizerAPI)
            let volume = try #require(device as? DeviceVolumeControlAPI)
            let work = try #require(device as? DeviceWorkModeAPI)
            let wear = try #require(device as? DeviceWearDetectionAPI)
            let tws = try #require(device as? DeviceTWSAPI)
            let music = try #require(device as? DeviceMusicControlAPI)
            let keys = try #require(device as? DevicePhysicalOperationsAPI)
            #expect(anc.ancMode == .off && eq.equalizerMode == .normal && volume.maxVolumeLevel == 16)
            #expect(work.workMode == .normal && wear.isWearDetectionSupported && wear.wearStatus == .worn)
            #expect(tws.isTWSDevice && tws.twsConnectionState == .connected && tws.twsStatus?.caseBattery == 64)
            #expect(music.mediaSession?.state == .paused && keys.physicalOperationMapping[.doubleTap] == .nextTrack)

            let hardware = try #require(device as? DeviceInfoAPI).hardwareConfiguration
            #expect(hardware.isTrueWirelessPair && hardware.hasNoiseCancellation && hardware.hasWearSensor)
            #expect(!hardware.hasCamera && !hardware.hasDisplay && hardware.equalizerBandCount == 10 && hardware.maxVolume == 16)
            #expect((device as? DeviceInfoAPI)?.capabilities.contains(.anc) == true)

            // ANC: transparency with its gain; off takes no gain; gain limit.
            try await anc.setAncMode(.transparency, gain: 7, fadeMilliseconds: 500)
            #expect(anc.ancMode == .transparency && anc.ancGain == 7 && anc.ancFadeMilliseconds == 500)
            await expectDeviceCode(6) { try await anc.setAncMode(.off, gain: 3, fadeMilliseconds: nil) }
            await expectDeviceCode(6) { try await anc.setAncMode(.ancOn, gain: 11, fadeMilliseconds: nil) }
            #expect(try await anc.requestQueryAncMode() == .transparency)
            let done = OneShot<NSError?>()
            anc.setAncMode(.ancOn) { error in done.succeed(error) }
            #expect(try await done.value() == nil)
            #expect(anc.ancMode == .ancOn && anc.ancGain == 6)

            // EQ: presets, custom bands within the device's limits.
            try await eq.setEqualizerMode(.rock)
            #expect(try await eq.requestQueryEqualizer() == .rock)
            #expect(eq.equalizerBandRange == -12...12 && eq.equalizerBands.count == 10)
            try await eq.setEqualizerBands([3, 2, 1, 0, 0, 0, -1, -2, 4, 5])
            #expect(eq.equalizerMode == .custom && eq.equalizerBands.first == 3)
            await expectDeviceCode(6) { try await eq.setEqualizerBands([13, 0, 0, 0, 0, 0, 0, 0, 0, 0]) }
            await expectDeviceCode(6) { try await eq.setEqualizerBands([0, 0]) }

            // Volume with a maximum.
            try await volume.setVolume(12)
            #expect(try await volume.requestQueryVolume() == 12)
            await expectDeviceCode(6) { try await volume.setVolume(17) }

            // Work mode, wear detection.
            try await work.setWorkMode(.lowLatency)
            #expect(try await work.requestQueryWorkMode() == .lowLatency)
            try await wear.setWearDetectionEnabled(false)
            #expect(!wear.isWearDetectionEnabled && wear.wearStatus == .unknown)
            try await wear.setWearDetectionEnabled(true)
            #expect(try await wear.requestQueryWearStatus() == .worn)
            #expect(wear.leftWearStatus == .worn && wear.rightWearStatus == .worn)

            // Music control acts on the emulated media session.
            try await music.sendMusicControl(.play)
            #expect(music.mediaSession?.state == .playing)
            try await music.sendMusicControl(.next)
            try await music.sendMusicControl(.next)
            try await music.sendMusicControl(.previous)
            let session = try await music.requestQueryMediaSession()
            #expect(session.trackIndex == 1 && session.state == .playing && session.title == "Blue Train")
            try await music.sendMusicControl(.volumeUp)
            #expect(volume.mediaVolume == 13)
            try await music.sendMusicControl(.pause)
            #expect(music.mediaSession?.state == .paused)

            // Key mapping.
            try await keys.assignFunction(.voiceAssistant, to: .singleTap)
            #expect(try await keys.requestQueryPhysicalOperationMapping()[.singleTap] == .voiceAssistant)
            #expect(try await tws.requestQueryTWSConnectionState() == .connected)

            // Delete-all: the deletion's completion reaches the delegate; status codes are the device's.
            let recorder = DeletionRecorder()
            device.delegate = recorder
            let base = try #require(device as? SMPDevice)
            _ = try await base.deleteAllMediaFiles(type: nil)
            try await eventually("the expected state") { recorder.events == [.completed] }
            #expect(try await base.setDeviceLanguage("ja") == 0)
        }

        @Test func earbudsEventsReachTheDelegateOfAnotherClientsChanges() async throws {
            defer { fixture.remove() }
            let running = try fixture.start(.earbuds, name: "Evt Buds")
            defer { running.stop() }
            let device = try await fixture.device(named: "Evt Buds")
            let recorder = ControlRecorder()
            device.delegate = recorder
            try await device.connectAndWait(ConnectParams())
            defer { device.disconnect() }
            let anc = try #require(device as? DeviceANCAPI)

            // Another client changes ANC, volume, EQ and plays: this app's delegate hears each.
            let other = try otherClient(running)
            defer { Task { await other.close() } }
            _ = try await other.request(DeviceSettingWriteRequest(name: DeviceSettingName.anc, value: ["mode": 2]))
            _ = try await other.request(DeviceSettingWriteRequest(name: DeviceSettingName.volume, value: ["level": 3]))
            _ = try await other.request(DeviceSettingWriteRequest(name: DeviceSettingName.equalizer, value: ["mode": 1]))
            _ = try await other.request(DeviceSettingWriteRequest(name: DeviceSettingName.workMode, value: ["mode": 1]))
            _ = try await other.request(DeviceActionRequest(name: DeviceActionName.music, args: ["command": 0]))
            try await eventually("the expected state") {
                recorder.contains("anc transparency") && recorder.contains("volume 3") && recorder.contains("eq bassBoost")
                    && recorder.contains("workMode lowLatency") && recorder.contains("media playing 0")
            }
            #expect(anc.ancMode == .transparency)

            // The wearer: takes out both buds (playback pauses), presses the right bud twice, the
            // buds lose each other, the left battery drains.
            let emulated = running.emulator.device
            try emulated.setWorn(.left, false)
            try emulated.setWorn(.right, false)
            try emulated.press(.doubleTap, on: .right)
            try emulated.setTWSLinked(false)
            try emulated.setPairBattery(.left, level: 20)
            try await eventually("the expected state") {
                recorder.contains("wear notWorn") && recorder.contains("media paused 0") && recorder.contains("press right doubleTap")
                    && recorder.contains("media paused 1") && recorder.contains("tws disconnected") && recorder.contains("battery 20")
            }
            let wear = try #require(device as? DeviceWearDetectionAPI)
            #expect(wear.leftWearStatus == .notWorn && wear.wearStatus == .notWorn)
            #expect((device as? DeviceTWSAPI)?.twsStatus?.leftBattery == 20)
        }

        @Test func earbudsSettingsPersistAcrossAnEmulatorRestart() async throws {
            defer { fixture.remove() }
            let first = try fixture.start(.earbuds, name: "Keep Buds")
            let port = first.address.port
            let device = try await fixture.device(named: "Keep Buds")
            try await device.connectAndWait(ConnectParams())
            let anc = try #require(device as? DeviceANCAPI)
            try await anc.setAncMode(.ancOn, gain: 9, fadeMilliseconds: 1_000)
            try await (device as? DeviceEqualizerAPI)?.setEqualizerBands([1, 1, 1, 1, 1, 1, 1, 1, 1, -12])
            try await (device as? DeviceVolumeControlAPI)?.setVolume(15)
            try await (device as? DevicePhysicalOperationsAPI)?.assignFunction(.none, to: .longPress)
            await device.disconnectAndWait()
            first.stop()

            // The stopped server releases its port as its thread ends: retry the bind until it is free.
            let restarted = Locked<EmulatorFixture.Running?>(nil)
            try await eventually("the expected state") {
                if let running = try? fixture.start(.earbuds, name: "Keep Buds", port: port) {
                    restarted.withLock { $0 = running }
                    return true
                }
                return false
            }
            let second = try #require(restarted.withLock { $0 })
            defer { second.stop() }
            try await device.connectAndWait(ConnectParams())
            defer { device.disconnect() }
            #expect(anc.ancMode == .ancOn && anc.ancGain == 9 && anc.ancFadeMilliseconds == 1_000)
            #expect((device as? DeviceEqualizerAPI)?.equalizerBands.last == -12)
            #expect((device as? DeviceEqualizerAPI)?.equalizerMode == .custom)
            #expect((device as? DeviceVolumeControlAPI)?.mediaVolume == 15)
            #expect((device as? DevicePhysicalOperationsAPI)?.physicalOperationMapping[.longPress] == PhysicalOperationFunction.none)
        }
    }
}
