import AIBudsFoundation
import AIBudsTestKit
import Foundation
import Testing
@testable import AIBuds

@Suite struct DeviceStoreTests {
    private func device(_ mac: String, name: String = "G") throws -> BaseDevice {
        try #require(BaseDevice(device: makeFoundDevice(mac: mac, name: name)))
    }

    private func resolveBase(_ record: StoredDeviceRecord) -> (any DeviceConvertible.Type)? { BaseDevice.self }

    @Test func roundTripKeepsOrderAndFields() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("data/aibuds/devices.json")
        let store = DeviceStore(fileURL: url)
        let first = try device("AA:BB:CC:00:00:01", name: "One")
        first.screenName = "Kitchen glasses"
        first.customContent = #"{"color":"red"}"#
        first.shouldAutoReconnectWhenAppLaunch = false
        let second = try device("AA:BB:CC:00:00:02", name: "Two")
        #expect(store.add(first))
        #expect(store.add(second))
        #expect(!store.add(first))
        #expect(store.move(from: 1, to: 0))
        #expect(!store.move(from: 0, to: 5))
        try store.save()

        let reloaded = DeviceStore(fileURL: url)
        let devices = try reloaded.load(resolver: resolveBase)
        #expect(devices.map(\.macAddress) == ["AA:BB:CC:00:00:02", "AA:BB:CC:00:00:01"])
        let copy = try #require(reloaded.find(macAddress: "aa-bb-cc-00-00-01"))
        #expect(copy.uuid == first.uuid)
        #expect(copy.name == "Kitchen glasses")
        #expect(copy.customContent == #"{"color":"red"}"#)
        #expect(copy.shouldAutoReconnectWhenAppLaunch == false)
        #expect(copy.product == .glasses)
        #expect(copy.protocolKind == .smp)
        #expect(copy.peripheral == first.peripheral)
        #expect(copy.manufacturerData == Data([0xFF, 0xFF, 2]))
        #expect(reloaded.find(peripheral: second.peripheral)?.uuid == second.uuid)
        #expect(reloaded.find(macAddress: "00:00:00:00:00:00") == nil)
        let permissions = try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
    }

    @Test func loadKeepsHandlesTheAppAlreadyHolds() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("devices.json")
        let store = DeviceStore(fileURL: url)
        let held = try device("AA:BB:CC:00:00:09")
        store.add(held)
        try store.save()
        let devices = try store.load(resolver: resolveBase)
        #expect(devices.count == 1)
        #expect(devices.first === held)
    }

    @Test func missingFileIsAnEmptyList() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = DeviceStore(fileURL: dir.appendingPathComponent("none/devices.json"))
        #expect(try store.load(resolver: resolveBase).isEmpty)
    }

    @Test func crashMidWriteLeavesTheOldStoreIntact() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("devices.json")
        let store = DeviceStore(fileURL: url)
        store.add(try device("AA:BB:CC:00:00:01"))
        try store.save()
        let before = try Data(contentsOf: url)

        store.add(try device("AA:BB:CC:00:00:02"))
        try store.save(interruptAfterBytes: 40)
        #expect(try Data(contentsOf: url) == before)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".tmp-") }
        #expect(leftovers.count == 1)

        let reloaded = DeviceStore(fileURL: url)
        #expect(try reloaded.load(resolver: resolveBase).map(\.macAddress) == ["AA:BB:CC:00:00:01"])
        let after = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.contains(".tmp-") }
        #expect(after.isEmpty)
    }

    @Test func aDeviceThatCannotBeEncodedIsTheSDKsIOErrorAndTheFileStays() throws {
        /// An app's device class whose state cannot be written as JSON.
        final class Unencodable: BaseDevice, @unchecked Sendable {
            struct Refused: Error {}
            override func encode(to encoder: any Encoder) throws { throw Refused() }
        }
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("devices.json")
        let store = DeviceStore(fileURL: url)
        store.add(try device("AA:BB:CC:00:00:03"))
        try store.save()
        let before = try Data(contentsOf: url)
        store.add(try #require(Unencodable(device: makeFoundDevice(mac: "AA:BB:CC:00:00:04", name: "Odd"))))
        let error = #expect(throws: AIBudsError.self) { try store.save() }
        #expect(error?.code == .storedDevicesIOFailed && error?.underlying is Unencodable.Refused, "\(String(describing: error))")
        #expect(error?.message.contains("Odd") == true)
        #expect(try Data(contentsOf: url) == before)
    }

    @Test(arguments: [
        Data("{\"format\": \"aibuds-stored-devices\", \"version\": 1, \"devices\": [".utf8),
        Data([0xFF, 0x00, 0x13]),
        Data("{\"format\": \"something-else\", \"version\": 1, \"devices\": []}".utf8),
    ])
    func corruptStoreIsMovedAsideAndReported(content: Data) throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("devices.json")
        try content.write(to: url)
        let store = DeviceStore(fileURL: url)
        let error = #expect(throws: AIBudsError.self) { try store.load(resolver: resolveBase) }
        #expect(error?.code == .storedDevicesCorrupted)
        #expect(error?.message.contains("moved to") == true)
        #expect(!FileManager.default.fileExists(atPath: url.path))
        let aside = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("devices.json.corrupt-") }
        #expect(aside.count == 1)
        #expect(try Data(contentsOf: dir.appendingPathComponent(aside[0])) == content)
        // A later save writes a fresh store and keeps the corrupt copy.
        store.add(try device("AA:BB:CC:00:00:03"))
        try store.save()
        #expect(try DeviceStore(fileURL: url).load(resolver: resolveBase).count == 1)
        #expect(try Data(contentsOf: dir.appendingPathComponent(aside[0])) == content)
    }

    @Test func newerVersionIsLeftUntouched() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("devices.json")
        let content = Data("{\"format\": \"aibuds-stored-devices\", \"version\": 9, \"devices\": []}".utf8)
        try content.write(to: url)
        let store = DeviceStore(fileURL: url)
        #expect(throws: AIBudsError.self) { try store.load(resolver: resolveBase) }
        store.add(try device("AA:BB:CC:00:00:04"))
        #expect(throws: AIBudsError.self) { try store.save() }
        #expect(try Data(contentsOf: url) == content)
    }

    @Test func recordsWithoutAPluginAreKeptVerbatim() throws {
        let dir = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let url = dir.appendingPathComponent("devices.json")
        let json = """
            {"format": "aibuds-stored-devices", "version": 1, "devices": [
              {"protocolKind": 0, "product": 4, "device": {"vendor": "abmate", "mac": "11:22:33:44:55:66", "n": 1.5}}
            ]}
            """
        try Data(json.utf8).write(to: url)
        let store = DeviceStore(fileURL: url)
        #expect(try store.load { _ in nil }.isEmpty)
        #expect(store.unresolvedRecords.count == 1)
        store.add(try device("AA:BB:CC:00:00:05"))
        try store.save()
        let again = DeviceStore(fileURL: url)
        _ = try again.load { $0.protocolKind == BleProtocolKind.smp.rawValue ? BaseDevice.self : nil }
        #expect(again.devices.count == 1)
        #expect(again.unresolvedRecords == store.unresolvedRecords)
        #expect(again.unresolvedRecords.first?.device == .object([
            "vendor": .string("abmate"), "mac": .string("11:22:33:44:55:66"), "n": .double(1.5),
        ]))
    }

    @Test func defaultLocationFollowsXDG() {
        let path = DataDirectory.storedDevicesFile.path
        if let xdg = ProcessInfo.processInfo.environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            #expect(path == xdg + "/aibuds/devices.json")
        } else {
            #expect(path.hasSuffix("/.local/share/aibuds/devices.json"))
        }
    }
}
