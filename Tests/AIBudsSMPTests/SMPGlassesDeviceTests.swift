import AIBuds
import AIBudsFoundation
import AIBudsSMP
import AIBudsTestKit
import Foundation
import Testing

/// How SMP glasses reach their media import engine: they own it, no table of the process does.
@Suite(.sdkState(.shared)) struct SMPGlassesDeviceTests {
    private func makeGlasses(mac: String) throws -> SMPGlassesDevice {
        let peripheral = Peripheral(stableKey: mac, address: DeviceAddress(host: "127.0.0.1", port: 1337), name: "Glasses")
        return try #require(SMPGlassesDevice(device: FoundDevice(
            peripheral: peripheral, advertisement: Advertisement(localName: "Glasses", manufacturerData: Data([0xFF, 0xFF, 2])),
            rssi: -50, product: .glasses, macAddress: mac, protocolKind: .smp)))
    }

    @Test func eachDeviceOwnsOneEngine() throws {
        let first = try makeGlasses(mac: "AA:00:00:00:01:01")
        let second = try makeGlasses(mac: "AA:00:00:00:01:02")
        #expect(first.mediaImport === first.mediaImport)
        #expect(first.mediaImport !== second.mediaImport)
    }

    @Test func theEngineDoesNotKeepItsDeviceAlive() async throws {
        var device: SMPGlassesDevice? = try makeGlasses(mac: "AA:00:00:00:01:03")
        weak let gone = device
        let engine = try #require(device?.mediaImport)
        device = nil
        #expect(gone == nil)
        let error = try await #require(throws: AIBudsError.self) { try await engine.deleteAllMediaFiles() }
        #expect(error.code == .deviceNotConnected)
    }
}
