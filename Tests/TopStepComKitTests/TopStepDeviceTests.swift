import AIBuds
import AIBudsAllInOne
import AIBudsEmulator
import AIBudsFoundation
import AIBudsSMP
import AIBudsTestKit
import Foundation
import Testing
@testable import TopStepComKit

extension LoopbackEmulator {
    /// Finds this emulator through `AIBudsSDK` (SMP plugin) and connects to it.
    func connectedDevice() async throws -> any DeviceConvertible {
        if !AIBudsSDK.isInitialized {
            // Generous limits: these tests are about the kit, and the whole suite runs beside them
            // on two cores (a connect once took over the default 10 s there).
            let configuration = SDKConfiguration.default()
            configuration.connectTimeoutInSeconds = 30
            configuration.commandTimeoutInSeconds = 15
            AIBudsAllInOne.initialize(configuration: configuration, options: .devicesOnly)
        }
        let found = try await AIBudsSDK.discoverDevice(at: "udp://\(address)")
        let device = try #require(AIBudsSDK.makeStorableDeviceFromDiscovered(found))
        try await device.connectAndWait(ConnectParams())
        return device
    }
}

/// `TopStepComKit.device`: the kit bound to an SMP device of the SDK, over UDP. The tests initialize
/// `AIBudsSDK`, so they hold its state lock exclusively (see `SDKStateLock`).
@Suite(.sdkState(.exclusive)) struct TopStepDeviceTests {
    @Test func aConnectedWatchBindsTheKit() async throws {
        let watch = try LoopbackEmulator.watch()
        defer { watch.stop() }
        let device = try await watch.connectedDevice()
        let kit = TopStepComKit()
        kit.device = device
        #expect(kit.device === device)
        #expect(kit.mediaFile.supportedOperations(for: .audioRecording) == [.list, .download, .delete, .observeChanges])
        let files = try #require(await kit.mediaFile.fetch().value)
        #expect(files.count == 3)
        let (download, _) = await kit.mediaFile.download(files[1], to: NSTemporaryDirectory() + "ts-dev-\(UUID().uuidString)")
        let path = try #require(download.value)
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == watch.content(of: files[1].fileName))

        // Unbinding, or a device that disconnected, fails at once as not connected.
        kit.device = nil
        #expect(await kit.mediaFile.fetch().error?.code == 2003)
        kit.device = device
        await device.disconnectAndWait()
        #expect(kit.mediaFile.supportedOperations(for: .audioRecording) == .none)
        let list = await kit.mediaFile.fetch()
        #expect(list.value == nil && list.error?.code == 2003 && list.calls == 1)
    }

    @Test func aDeviceDisconnectingMidDownloadCompletesOnceWithNotConnected() async throws {
        // 800 kB over the ble link profile takes about 5 s; the device disconnects after 300 ms.
        let watch = try LoopbackEmulator.watch(files: [.generated("long.opus", type: .audio, size: 800_000)], link: .ble)
        defer { watch.stop() }
        // A 30 s command timeout, so that the bound below tells an end by the disconnect from one
        // by a timed-out request, however loaded the machine.
        let configuration = SDKConfiguration.default()
        configuration.commandTimeoutInSeconds = 30
        #expect(AIBudsAllInOne.initialize(configuration: configuration, options: .devicesOnly))
        let device = try await watch.connectedDevice()
        let kit = TopStepComKit()
        kit.device = device
        let file = try #require(await kit.mediaFile.fetch().value?.first)
        let folder = NSTemporaryDirectory() + "ts-drop-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        Task {
            try await Task.sleep(for: .milliseconds(300))
            await device.disconnectAndWait()
        }
        let started = ContinuousClock.now
        let (outcome, progress) = await kit.mediaFile.download(file, to: folder)
        #expect(outcome.value == nil && outcome.error?.code == 2003 && outcome.calls == 1)
        #expect(ContinuousClock.now - started < .seconds(15))
        #expect(progress.last == -1 && !progress.dropLast().contains(100))
        #expect(!FileManager.default.fileExists(atPath: folder + "/long.opus"))
    }

    @Test func theEarbudsMaskHasDeleteAll() async throws {
        let earbuds = try LoopbackEmulator(files: [.generated("a.opus", type: .audio, size: 100)], profile: .earbuds)
        defer { earbuds.stop() }
        let kit = TopStepComKit()
        kit.device = try await earbuds.connectedDevice()
        defer { kit.device = nil }
        #expect(kit.mediaFile.supportedOperations(for: .audioRecording).contains(.deleteAll))
        let outcome = await kit.mediaFile.deleteAll()
        #expect(outcome.value == true && outcome.error == nil)
        #expect(await kit.mediaFile.fetch().value == [])
    }

    @Test func glassesOfferNoTopStepMediaOperations() async throws {
        let glasses = try LoopbackEmulator(files: [.generated("a.m4a", type: .audio, size: 100)], profile: .glasses)
        defer { glasses.stop() }
        let kit = TopStepComKit()
        kit.device = try await glasses.connectedDevice()
        defer { kit.device = nil }
        #expect(kit.mediaFile.supportedOperations(for: .audioRecording) == .none)
        #expect(await kit.mediaFile.fetch().error?.code == 2004)
    }
}
