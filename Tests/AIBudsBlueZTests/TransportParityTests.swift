import AIBuds
import AIBudsEmulator
import AIBudsFoundation
import AIBudsLog
import AIBudsNet
import AIBudsSMP
import AIBudsTestKit
import Foundation
import Testing

@testable import AIBudsBlueZ
@testable import TopStepComKit

/// The link a parity test reaches the emulated device over.
enum ParityLink: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case udp, bluez
    var testDescription: String { rawValue }
}

/// The device core, TopStep's recordings and the media features run unchanged over both links:
/// the same emulated device (one `Emulator`, served on UDP and through the BlueZ stand-in on a
/// private dbus-daemon at once), the same SDK calls, the same answers.
@Suite(.sdkState(.exclusive), .timeLimit(.minutes(4))) struct TransportParityTests {
    /// The SDK with both link plugins, connected to the fixture's device over `link`.
    private func connect(
        _ fixture: BlueZFixture, over link: ParityLink, folder: URL
    ) async throws -> any DeviceConvertible {
        let udp = try fixture.emulator.start()
        let configuration = SDKConfiguration.default()
        configuration.logService = RecordingLogService(minimumLevel: .info)
        configuration.commandTimeoutInSeconds = 5
        configuration.connectTimeoutInSeconds = 10
        configuration.storedDevicesURL = folder.appendingPathComponent("devices.json")
        let plugins: [any BleConnectSDK] = [
            SMPConnectSDK(discoveryDirectory: folder.appendingPathComponent("announcements")),
            BlueZConnectSDK(busAddress: fixture.bus.address),
        ]
        #expect(AIBudsSDK.initialize(plugins, configuration: configuration))
        let found = try await AIBudsSDK.discoverDevice(at: link == .udp ? "udp://\(udp)" : fixture.deviceAddress)
        #expect(found.protocolKind == (link == .udp ? .smp : .abmate))
        let device = try #require(AIBudsSDK.makeStorableDeviceFromDiscovered(found))
        try await device.connectAndWait(ConnectParams())
        // Device info and capabilities: the device's own values, whatever the link.
        let emulated = fixture.emulator.device
        let base = try #require(device as? SMPDevice)
        #expect(base.capabilities == Set(emulated.profile.capabilities.map(DeviceCapability.init(rawValue:))))
        let info = try #require(device as? DeviceInfoAPI)
        #expect(try await info.requestQueryBatteryStatus().level.intValue == emulated.battery().level)
        let counts = try await info.requestQueryMediaCountInfo()
        #expect(counts.photoCount.intValue == emulated.store.list(type: .image).count)
        #expect(counts.audioCount.intValue == emulated.store.list(type: .audio).count)
        return device
    }

    @Test(arguments: ParityLink.allCases)
    func glassesInfoMediaListAndHotspot(_ link: ParityLink) async throws {
        AIBudsSDK.resetForTesting()
        defer { AIBudsSDK.resetForTesting() }
        let folder = try makeTemporaryDirectory("parity-glasses-\(link.rawValue)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixture = try await BlueZFixture.start(
            profile: .glasses,
            files: [.generated("IMG_PARITY.jpg", type: .image, size: 30_000), .generated("REC_PARITY.opus", type: .audio, size: 9_000)],
            link: .ble)
        let device = try await connect(fixture, over: link, folder: folder)
        #expect(device is SMPGlassesDevice)
        let emulated = fixture.emulator.device

        // The media list over the control link.
        let channel = try #require(device as? any MediaFileTransferChannel)
        let listing = try await channel.listMediaFiles(type: nil)
        #expect(Set(listing.files.map(\.name)) == Set(emulated.store.list().map { $0.name.text }))

        // Hotspot control.
        let hotspot = try #require(device as? DeviceHotspotAPI)
        #expect(try await hotspot.configureHotspot(withMode: .ap, channel: 6, ssid: "Parity", password: "parity-secret-1") == 0)
        try await hotspot.enterFileTransferMode()
        try await eventually("the hotspot to open") { (try? await hotspot.requestQueryHotspotStatus())?.state == .hotspotOpen }
        #expect(try emulated.hotspotStatus().state == .hotspotOpen)
        try await hotspot.leaveFileTransferMode()
        #expect(try emulated.hotspotStatus().state == .hotspotClose)

        await device.disconnectAndWait()
        await fixture.stop()
    }

    @Test(arguments: ParityLink.allCases)
    func watchRecordingsThroughTopStep(_ link: ParityLink) async throws {
        AIBudsSDK.resetForTesting()
        defer { AIBudsSDK.resetForTesting() }
        let folder = try makeTemporaryDirectory("parity-watch-\(link.rawValue)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let recording = "REC_PARITY.opus"
        let fixture = try await BlueZFixture.start(
            profile: .watch, files: [.generated(recording, type: .audio, size: 150_000)], link: .ble)
        let device = try await connect(fixture, over: link, folder: folder)
        #expect(device is SMPWatchDevice)

        // TopStep's recordings: listed, then downloaded with the windowed SMP File transfer.
        let kit = TopStepComKit()
        kit.device = device
        let files: [TSMediaFileModel] = try await withCheckedThrowingContinuation { continuation in
            kit.mediaFile.fetchMediaFiles(of: .audioRecording) { files, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: files ?? []) }
            }
        }
        #expect(files.map(\.fileName) == [recording])
        let file = try #require(files.first)
        let target = folder.appendingPathComponent("recordings").path
        let path: String = try await withCheckedThrowingContinuation { continuation in
            kit.mediaFile.downloadMediaFile(file, localFolderPath: target, progress: nil) { path, error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume(returning: path ?? "") }
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == fixture.content(of: recording))
        kit.device = nil

        await device.disconnectAndWait()
        await fixture.stop()
    }
}
