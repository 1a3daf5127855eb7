import AIBudsEmulator
import AIBudsTestKit
import Foundation
import Testing

/// The device core, TopStep and the SMP file transfers through `aibuds` over the BlueZ transport:
/// the real binary, the BlueZ plugin of `AIBudsAllInOne`, a private dbus-daemon and the emulator's
/// BlueZ stand-in.
@Suite(.timeLimit(.minutes(3))) struct BlueZCLITests {
    @Test func scanFindsTheDeviceOverBLEWithItsTransport() async throws {
        let fixture = try await BlueZFixture.start()
        let result = try await fixture.aibuds(["scan", "--timeout", "1.5", "--json"])
        let table = try await fixture.aibuds(["scan", "--timeout", "1"])
        await fixture.stop()
        #expect(result.status == 0, "\(result.err)")
        let entries = try JSONSerialization.jsonObject(with: result.output) as? [[String: Any]] ?? []
        let entry = entries.first { $0["address"] as? String == fixture.deviceAddress }
        #expect(entry?["transport"] as? String == "ble")
        #expect(entry?["mac"] as? String == fixture.standIn.address)
        #expect(entry?["product"] as? String == "glasses")
        #expect(entry?["rssi"] as? Int == -52)
        #expect(table.out.contains("TRANSPORT") && table.out.contains(" ble "))
    }

    @Test func infoOverBLEByAddressAndByMAC() async throws {
        let fixture = try await BlueZFixture.start()
        let byAddress = try await fixture.aibuds(["info", "--device", fixture.deviceAddress, "--json"])
        let byMAC = try await fixture.aibuds(["info", "--device", fixture.standIn.address])
        await fixture.stop()
        #expect(byAddress.status == 0, "\(byAddress.err)")
        let info = try JSONSerialization.jsonObject(with: byAddress.output) as? [String: Any]
        #expect(info?["mac"] as? String == fixture.standIn.address)
        #expect(byMAC.status == 0, "\(byMAC.err)")
        #expect(byMAC.out.contains("address       \(fixture.deviceAddress)"))
        #expect(byMAC.out.contains("battery"))
    }

    @Test func mediaListOverBLE() async throws {
        let fixture = try await BlueZFixture.start()
        let result = try await fixture.aibuds(["media", "list", "--device", fixture.deviceAddress])
        let expected = fixture.emulator.device.store.list().count
        await fixture.stop()
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("\(expected) files"))
    }

    @Test func recordingsDownloadOverBLEIsByteExact() async throws {
        let fixture = try await BlueZFixture.start(
            profile: .watch, files: [.generated("REC_BLE.opus", type: .audio, size: 300_000)], link: .ble)
        let content = try fixture.content(of: "REC_BLE.opus")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bluez-rec-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try await fixture.aibuds(["recordings", "download", "--device", fixture.deviceAddress, "--to", folder, "REC_BLE.opus"])
        await fixture.stop()
        #expect(result.status == 0, "\(result.err)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/REC_BLE.opus")) == content)
    }

    @Test func hotspotImportWithTheControlLinkOverBLE() async throws {
        let fixture = try await BlueZFixture.start(files: [.generated("IMG_BLE.jpg", type: .image, size: 200_000)])
        let photo = try fixture.content(of: "IMG_BLE.jpg")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bluez-import-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try await fixture.aibuds(["media", "import", "--device", fixture.deviceAddress, "--to", folder, "--all"])
        await fixture.stop()
        #expect(result.status == 0, "\(result.err)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/IMG_BLE.jpg")) == photo)
    }

    @Test func anAdapterThatIsOffIsReported() async throws {
        var options = BlueZStandIn.Options()
        options.powered = false
        let fixture = try await BlueZFixture.start(options: options)
        let result = try await fixture.aibuds(["info", "--device", fixture.deviceAddress])
        await fixture.stop()
        #expect(result.status != 0)
        #expect(result.err.contains("is off"), "\(result.err)")
    }
}
