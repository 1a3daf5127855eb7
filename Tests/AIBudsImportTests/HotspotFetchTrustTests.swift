import AIBuds
import AIBudsImport
import AIBudsFoundation
import AIBudsSync
import Foundation
import Testing

/// The fetch trusts its own hotspot configuration, not the device's state answer
/// (docs/reliability.md §9): it joins the SSID it configured, and only a data plane on the
/// device's network.
@Suite("Hotspot fetch trust")
struct HotspotFetchTrustTests {
    /// Records the networks it is asked to join.
    final class RecordingJoiner: HotspotJoiner {
        let networks = Locked<[HotspotNetwork]>([])
        func join(_ network: HotspotNetwork) async throws { networks.withLock { $0.append(network) } }
    }

    /// A device whose hotspot state answer names another SSID and a data plane of the test's choice.
    final class LyingHotspotDevice: MediaImportControlChannel {
        let baseUrl: String
        let joiner = RecordingJoiner()
        let configuredSSID = Locked<String?>(nil)
        init(baseUrl: String) { self.baseUrl = baseUrl }

        var mediaImportDeviceID: String { "lying-hotspot" }
        var mediaImport: MediaImportEngine { MediaImportEngine(channel: self, joiner: joiner) }
        var hotspotState: HotspotState { .hotspotOpen }
        func configureHotspot(withMode mode: HotspotMode, channel: Int, ssid: String, password: String) async throws -> NSNumber? {
            configuredSSID.withLock { $0 = ssid }
            return nil
        }
        func enterFileTransferMode() async throws {}
        func leaveFileTransferMode() async throws {}
        func cancelFileTransfer() async throws {}
        func requestQueryHotspotStatus() async throws -> HotspotStatusInfo {
            HotspotStatusInfo(state: .hotspotOpen, ssid: "Evil-Twin", baseUrl: baseUrl, token: "tok3n")
        }
        func listMediaFiles(type: MediaFileType?) async throws -> DeviceMediaListing { DeviceMediaListing(generation: 1, files: []) }
        func deleteMediaFile(named name: String, generation: UInt64?) async throws -> UInt64 { 1 }
        func deleteAllMediaFiles(type: MediaFileType?) async throws -> (generation: UInt64, deleted: Int) { (1, 0) }
        func mediaFileSHA256(named name: String) async throws -> [UInt8]? { nil }
    }

    @Test func theConfiguredSSIDIsJoinedNotTheOneTheDeviceNames() async throws {
        let device = LyingHotspotDevice(baseUrl: "http://192.168.4.1:8080")
        let engine = device.mediaImport
        _ = try await engine.fetchMediaFiles()
        let joined = device.joiner.networks.withLock { $0 }
        #expect(joined.count == 1)
        #expect(joined.first?.ssid == device.configuredSSID.withLock { $0 })
        #expect(joined.first?.ssid != "Evil-Twin")
    }

    @Test(arguments: ["http://8.8.8.8:8080", "http://evil.example:80", "http://100.64.0.1:80"])
    func aDataPlaneOffTheDevicesNetworkIsRefusedBeforeAnyJoin(_ baseUrl: String) async throws {
        let device = LyingHotspotDevice(baseUrl: baseUrl)
        let engine = device.mediaImport
        let error = await #expect(throws: AIBudsError.self) { _ = try await engine.fetchMediaFiles() }
        #expect(error?.code == .fetchMediaFilesInfoFailedDueToInvalidConfigUrl)
        #expect(device.joiner.networks.withLock { $0 }.isEmpty)
    }
}
