@testable import AIBuds
import AIBudsCBOR
import AIBudsEmulator
import AIBudsFoundation
import AIBudsImport
import AIBudsLog
import AIBudsSMP
import AIBudsSync
import AIBudsTestKit
import AIBudsWire
import Foundation
import Testing

extension SDKTests {
    /// The glasses' services against the glasses emulator over UDP (docs/protocol.md §3, "Controls").
    @Suite(.sdkState(.exclusive)) struct GlassesServices {
        let fixture: EmulatorFixture

        init() throws {
            fixture = try EmulatorFixture("glasses-services")
            #expect(AIBudsSDK.initialize([fixture.plugin()], configuration: fixture.configuration()))
        }

        private func expectDeviceCode(_ code: Int, _ body: () async throws -> Void) async {
            let error = await #expect(throws: AIBudsError.self) { try await body() }
            #expect(error?.deviceStatusCode == code)
        }

        @Test func glassesServicesOverSockets() async throws {
            defer { fixture.remove() }
            let running = try fixture.start(.glasses, name: "Svc Glasses")
            defer { running.stop() }
            let device = try await fixture.device(named: "Svc Glasses")
            let recorder = ControlRecorder()
            device.delegate = recorder
            try await device.connectAndWait(ConnectParams())
            defer { device.disconnect() }
            let emulated = running.emulator.device

            // Camera firmware version, read at connection.
            #expect((device as? DeviceCameraAPI)?.cameraFirmwareVersion == "CAM-1.2.0")
            let hardware = try #require(device as? DeviceInfoAPI).hardwareConfiguration
            #expect(hardware.hasCamera && hardware.hasDisplay && hardware.hasHotspot && !hardware.isTrueWirelessPair)
            #expect(hardware.cameraFirmwareVersion == "CAM-1.2.0")

            // AI audio recording beside the normal one.
            let audio = try #require(device as? DeviceAudioRecordingAPI)
            #expect(try await audio.requestStartAIAudioRecording() == 0)
            try await eventually("the expected state") { (device as? DeviceWorkStateAPI)?.workState == .aiConversing }
            let busy = await #expect(throws: AIBudsError.self) { try await audio.requestStartAudioRecording() }
            #expect(busy?.deviceStatusCode == 5)
            #expect(try await audio.requestStopAudioRecording().hasPrefix("AI_"))

            // Remote shutter: a press goes to the app instead of taking a photo.
            let shutter = try #require(device as? DeviceRemoteShutterAPI)
            try await shutter.syncRemoteShutterState(isEnabled: true)
            #expect(shutter.isRemoteShutterEnabled)
            let photos = emulated.store.counts().photos
            try emulated.press(.singleTap, on: nil)
            try await eventually("the expected state") { recorder.contains("press device singleTap") && recorder.contains("shutterPressed") }
            #expect(emulated.store.counts().photos == photos)

            // Apps: list, start, stop, unknown and wrong state refused with the device's code.
            let apps = try #require(device as? DeviceAppsAPI)
            #expect(try await apps.requestQueryApps().map(\.identifier) == ["camera", "translate", "notes", "music"])
            try await apps.startApp(withIdentifier: "translate")
            #expect(apps.installedApps.first { $0.identifier == "translate" }?.isRunning == true)
            await expectDeviceCode(7) { try await apps.startApp(withIdentifier: "translate") }
            await expectDeviceCode(2) { try await apps.startApp(withIdentifier: "no-such-app") }
            try await apps.stopApp(withIdentifier: "translate")
            try await eventually("the expected state") { recorder.contains("apps [\"translate\"]") && recorder.contains("apps []") }

            // Service authorization: retry runs, then the device reports authorized; app's result.
            let auth = try #require(device as? DeviceServiceAuthAPI)
            #expect(auth.serviceAuthState == .notAuthorized)
            try await auth.retryServiceAuth()
            try await eventually("the expected state") { auth.serviceAuthState == .authorized }
            try await auth.reportServiceAuthResult(false)
            #expect(try await auth.requestQueryServiceAuthState() == .failed)

            // Voice assistant: off refuses the wake word; on, wake words reach the delegate.
            let assistant = try #require(device as? OnDeviceVoiceAssistantAPI)
            #expect(throws: EmulatorError.self) { try emulated.wakeWord("Hey Glasses") }
            try await assistant.setVoiceAssistantEnabled(true)
            #expect(assistant.isVoiceAssistantEnabled)
            try emulated.wakeWord("Hey Glasses")
            try await eventually("the expected state") { recorder.contains("wakeWord Hey Glasses") }

            // Teleprompter: pages, scroll with limits, close.
            let prompter = try #require(device as? TeleprompterAPI)
            let text = Array(repeating: "word", count: 120).joined(separator: " ")
            try await prompter.sendTeleprompterText(text)
            #expect(prompter.teleprompterState?.isOpen == true && prompter.teleprompterState?.pageCount == 3)
            try await prompter.scrollTeleprompter(toPage: 2, position: 40)
            #expect(prompter.teleprompterState?.page == 2 && prompter.teleprompterState?.position == 40)
            await expectDeviceCode(6) { try await prompter.scrollTeleprompter(toPage: 9, position: 0) }
            try await prompter.closeTeleprompter()
            #expect(prompter.teleprompterState?.isOpen == false)
            await expectDeviceCode(7) { try await prompter.closeTeleprompter() }

            // Navigation: instruction, then stop.
            let navigation = try #require(device as? TurnByTurnNavigationAPI)
            let instruction = NavigationInstruction(maneuver: .turnLeft, distanceInMeters: 120, text: "Baker Street")
            try await navigation.sendNavigationInstruction(instruction)
            #expect(navigation.currentNavigationInstruction == instruction)
            try await eventually("the expected state") { recorder.contains("navigation Baker Street") }
            // An alert with and without a place; the device shows the last one.
            try await navigation.sendNavigationAlert(NavigationAlert(kind: .speedCamera, distanceInMeters: 300))
            #expect(navigation.currentNavigationAlert == NavigationAlert(kind: .speedCamera, distanceInMeters: 300))
            try await navigation.sendNavigationAlert(NavigationAlert(kind: .rerouting))
            #expect(navigation.currentNavigationAlert == NavigationAlert(kind: .rerouting))
            try await eventually("the alert events") { recorder.contains("alert speedCamera 300") && recorder.contains("alert rerouting -") }
            await #expect(throws: AIBudsError.self) { try await navigation.sendNavigationAlert(NavigationAlert(kind: .unknown)) }
            // The device checks the names on the wire: one it does not know is refused.
            let teleport = try CBOREncoder().encodeValue(NavigationSetting(maneuver: "teleport", distance: 1, street: ""))
            #expect(throws: EmulatorError.self) { _ = try emulated.performAction(DeviceActionName.navigationShow, teleport) }
            try await navigation.stopNavigation()
            #expect(navigation.currentNavigationInstruction == nil)
            #expect(navigation.currentNavigationAlert == nil, "stopping navigation clears its alert")
            try await eventually("the alert is cleared") { recorder.contains("alert none") }
            await expectDeviceCode(7) { try await navigation.stopNavigation() }

            // Report phone found: the wearer asks, the app hears it, reports the phone found.
            let find = try #require(device as? DeviceFindAPI)
            #expect(!find.isFindingPhone)
            await expectDeviceCode(7) { try await find.reportPhoneFound() }
            try emulated.askForPhone()
            try await eventually("the wearer's request") { recorder.contains("findPhone true") && find.isFindingPhone }
            let reported = CallRecorder()
            find.reportPhoneFound { success, error in reported.complete("found(\(success))", error) }
            #expect(try await reported.waitForAnyCompletion() == nil)
            #expect(!find.isFindingPhone)
            try await eventually("the search ended") { recorder.contains("findPhone false") }
        }

        @Test func formattingEmptiesTheMediaStorageAndIsRefusedWhileBusy() async throws {
            defer { fixture.remove() }
            let running = try fixture.start(.glasses, name: "Fmt Glasses", faults: ["slow-hotspot=20000"])
            defer { running.stop() }
            let device = try await fixture.device(named: "Fmt Glasses")
            try await device.connectAndWait(ConnectParams())
            defer { device.disconnect() }
            let emulated = running.emulator.device
            let info = try #require(device as? DeviceInfoAPI)
            let before = try await info.requestQueryMediaCountInfo()
            #expect(before.photoCount.intValue + before.videoCount.intValue + before.audioCount.intValue > 0)
            let common = try #require(device as? DeviceCommonAPI)

            // The device refuses while it records (busy, device code 5); nothing is deleted.
            try emulated.startRecording(video: true)
            await expectDeviceCode(5) { _ = try await common.formatMediaStorage() }
            _ = try emulated.stopRecording(video: true)
            let recorded = try await info.requestQueryMediaCountInfo()
            #expect(recorded.videoCount.intValue == before.videoCount.intValue + 1)

            // A fetch of this SDK in progress (the hotspot opens only after 20 s) is refused by the
            // SDK itself; nothing is deleted.
            let glasses = try #require(device as? SMPGlassesDevice)
            let fetch = glasses.mediaImport.fetchEvents()
            let fetching = Task { do { for try await _ in fetch {} } catch {} }
            let refused = await #expect(throws: AIBudsError.self) { _ = try await common.formatMediaStorage() }
            #expect(refused?.code == .deviceBusy && refused?.deviceStatusCode == nil)
            #expect(try await info.requestQueryMediaCountInfo().videoCount == recorded.videoCount)
            _ = try await glasses.mediaImport.cancel()
            await fetching.value
            let formatted = CallRecorder()
            common.formatMediaStorage { success, status, error in
                formatted.complete("format(\(success), \(status.map { "\($0)" } ?? "nil"))", error)
            }
            // With the fetch cancelled (the device still entering transfer mode) formatting ends
            // the session first.
            let failure = try await formatted.waitForAnyCompletion()
            #expect(failure == nil, "\(String(describing: failure))")
            #expect(formatted.names == ["format(true, 0)"])
            let after = try await info.requestQueryMediaCountInfo()
            #expect(after.photoCount.intValue + after.videoCount.intValue + after.audioCount.intValue == 0)
            #expect(try await glasses.requestQueryHotspotStatus().state == .hotspotClose)
        }
    }
}

/// A bridge plugin that records its calls and answers with a fixed token (empty: a failure).
final class RecordingBridge: StarBurstBridgePlugin, MltCloudBridgePlugin, OnDeviceVoiceAssistantBridgePlugin {
    let token: Data
    private let log = Locked<[String]>([])
    var calls: [String] { log.withLock { $0 } }
    init(token: Data) { self.token = token }
    func authorize(device: any DeviceConvertible, params: StarBurstAIAuthParams) async throws -> Data {
        log.withLock { $0.append("starburst \(params.productId ?? "-")") }
        return token
    }
    func authorize(device: any DeviceConvertible, params: MltCloudAIAuthParams) async throws -> Data {
        log.withLock { $0.append("mltcloud \(params.channelId ?? "-")") }
        return token
    }
    func authorizeVoiceAssistant(device: any DeviceConvertible) async throws -> Data {
        log.withLock { $0.append("voice \(device.name)") }
        return token
    }
}

extension SDKTests.GlassesServices {
    @Test func bridgePluginsAuthorizeDuringConnectionAndTheDeviceHearsTheResult() async throws {
        defer { fixture.remove() }
        let running = try fixture.start(.glasses, name: "Auth Glasses")
        defer { running.stop() }
        let bridge = RecordingBridge(token: Data("token".utf8))
        AIBudsSDK.setStarBurstAIPlugin(bridge)
        AIBudsSDK.setMltCloudAIPlugin(bridge)
        AIBudsSDK.setOnDeviceVoiceAssistantPlugin(bridge)
        defer {
            AIBudsSDK.setStarBurstAIPlugin(nil)
            AIBudsSDK.setMltCloudAIPlugin(nil)
            AIBudsSDK.setOnDeviceVoiceAssistantPlugin(nil)
        }
        let device = try await fixture.device(named: "Auth Glasses")
        let params = ConnectParams()
        let auth = AIAuthParams()
        let starBurst = StarBurstAIAuthParams()
        starBurst.productId = "sb-1"
        auth.starburst = starBurst
        params.aiAuthParams = auth
        try await device.connectAndWait(params)
        #expect(bridge.calls == ["starburst sb-1", "voice Auth Glasses"])
        #expect((device as? DeviceServiceAuthAPI)?.serviceAuthState == .authorized)
        await device.disconnectAndWait()

        // Without aiAuthParams nothing is called; a failing bridge is reported to the device as failed.
        let failing = RecordingBridge(token: Data())
        AIBudsSDK.setStarBurstAIPlugin(failing)
        AIBudsSDK.setOnDeviceVoiceAssistantPlugin(failing)
        try await device.connectAndWait(ConnectParams())
        #expect(failing.calls.isEmpty)
        await device.disconnectAndWait()
        try await device.connectAndWait(params)
        #expect(failing.calls.count == 2)
        #expect((device as? DeviceServiceAuthAPI)?.serviceAuthState == .failed)
        #expect(try await (device as? DeviceServiceAuthAPI)?.requestQueryServiceAuthState() == .failed)
        await device.disconnectAndWait()
    }
}
