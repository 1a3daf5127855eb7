@testable import AIBuds
import AIBudsDigest
import AIBudsEmulator
import AIBudsFoundation
import AIBudsSMP
import AIBudsSync
import AIBudsTestKit
import AIBudsMCUboot
import Foundation
import Testing

/// Records what a firmware update tells the app.
final class OtaRecorder: DeviceDelegate {
    private let log = Locked<[String]>([])
    var records: [String] { log.withLock { $0 } }
    func device(_ device: any DeviceConvertible, didFirmwareVersionChanged version: String) {
        log.withLock { $0.append("firmware \(version)") }
    }
    func device(_ device: any DeviceConvertible, didWorkStateChanged state: WorkState) {
        log.withLock { $0.append("work \(state)") }
    }
}

extension SDKTests {
    /// `DeviceOtaAPI` and `DeviceCameraOtaAPI` against the emulator over UDP.
    @Suite(.sdkState(.exclusive), .timeLimit(.minutes(4))) struct FirmwareUpdates {
        let fixture: EmulatorFixture

        init() throws {
            fixture = try EmulatorFixture("ota")
            #expect(AIBudsSDK.initialize([fixture.plugin()], configuration: fixture.configuration()))
        }

        /// Writes an MCUboot image of `size` body bytes at `version` and returns its path and hash.
        private func image(_ name: String, version: String, size: Int = 120_000) throws -> (path: String, hash: Data) {
            var random = SeededRandom(seed: UInt64(size) &+ UInt64(name.utf8.count))
            let body = Data((0..<size).map { _ in UInt8(truncatingIfNeeded: random.next()) })
            let data = MCUbootImage.build(body: body, version: MCUbootVersion(version)!, headerSize: 0x200, sha256: { SHA256.hash($0) })
            let url = fixture.directory.appendingPathComponent(name)
            try data.write(to: url)
            return (url.path, try MCUbootImage(parsing: data).hash)
        }

        private func connect(_ name: String) async throws -> any DeviceConvertible {
            let device = try await fixture.device(named: name)
            try await device.connectAndWait(ConnectParams())
            return device
        }

        @Test func startOtaUploadsTestsResetsConfirmsAndReportsTheVersion() async throws {
            defer { fixture.remove() }
            let running = try fixture.start(.glasses, name: "OTA Glasses")
            defer { running.stop() }
            let device = try await connect("OTA Glasses")
            defer { device.disconnect() }
            let recorder = OtaRecorder()
            device.delegate = recorder
            let ota = try #require(device as? DeviceOtaAPI)
            let file = try image("main.bin", version: "2.5.0")

            let progress = Locked<[Double]>([])
            let started = Locked(false)
            let outcome: (Bool, NSError?) = await withCheckedContinuation { continuation in
                ota.startOta(withFilePath: file.path, startHandler: { started.withLock { $0 = true } },
                             progressHandler: { value in progress.withLock { $0.append(value) } },
                             completionHandler: { success, error in continuation.resume(returning: (success, error)) })
            }
            #expect(outcome.0 && outcome.1 == nil, "\(String(describing: outcome.1))")
            #expect(started.withLock { $0 })
            let values = progress.withLock { $0 }
            #expect(values.last == 1 && values == values.sorted() && values.count > 5, "\(values)")
            #expect(device.firmwareVersion == "2.5.0")
            try await eventually("the delegate hears of the new version") { recorder.records.contains("firmware 2.5.0") }
            #expect(recorder.records.contains("work ota"), "\(recorder.records)")
            let emulated = running.emulator.device
            #expect(emulated.firmwareVersion() == "2.5.0")
            #expect(emulated.firmwareStates().contains { $0.slot == 0 && $0.isActive && $0.isConfirmed && $0.hash == file.hash })

            // The camera module's firmware, image 1.
            let camera = try #require(device as? DeviceCameraOtaAPI)
            try await camera.startCameraOta(withFilePath: try image("camera.bin", version: "1.3.0", size: 40_000).path, progress: nil)
            #expect(camera.cameraFirmwareVersion == "CAM-1.3.0")
            #expect(emulated.firmwareVersion(image: 1) == "1.3.0" && emulated.firmwareVersion() == "2.5.0")
        }

        @Test func badFilesAreRefusedBeforeAnythingIsSent() async throws {
            defer { fixture.remove() }
            let running = try fixture.start(.earbuds, name: "OTA Buds")
            defer { running.stop() }
            let device = try await connect("OTA Buds")
            defer { device.disconnect() }
            let ota = try #require(device as? DeviceOtaAPI)
            #expect(device as? DeviceCameraOtaAPI == nil)
            let raw = fixture.directory.appendingPathComponent("raw.bin")
            try Data(repeating: 0x11, count: 5_000).write(to: raw)
            var corrupt = try Data(contentsOf: URL(fileURLWithPath: try image("good.bin", version: "1.9.0").path))
            corrupt[0x300] ^= 1
            let corruptURL = fixture.directory.appendingPathComponent("corrupt.bin")
            try corrupt.write(to: corruptURL)
            let tooLarge = try image("large.bin", version: "1.9.0", size: 3 << 20)
            for path in [raw.path, corruptURL.path, tooLarge.path] {
                let error = await #expect(throws: AIBudsError.self) { try await ota.startOta(withFilePath: path, progress: nil) }
                #expect(error?.code == .operationFailedDueToWrongParameters, "\(path): \(String(describing: error))")
            }
            let missing = await #expect(throws: AIBudsError.self) {
                try await ota.startOta(withFilePath: "/nonexistent/fw.bin", progress: nil)
            }
            #expect(missing != nil)
            #expect(running.emulator.device.firmwareBytesAccepted == 0)
            #expect(device.firmwareVersion == "1.8.0")
        }

        @Test func aFailedBootRevertsAndSaysSo() async throws {
            defer { fixture.remove() }
            let running = try fixture.start(.watch, name: "OTA Watch", faults: ["ota-boot-fail=1"])
            defer { running.stop() }
            let device = try await connect("OTA Watch")
            defer { device.disconnect() }
            let ota = try #require(device as? DeviceOtaAPI)
            let error = await #expect(throws: AIBudsError.self) {
                try await ota.startOta(withFilePath: try image("crash.bin", version: "3.2.0").path, progress: nil)
            }
            #expect(error?.code == .operationFailedDueToDeviceReturnNonSuccessStatusCode)
            #expect(error?.message.contains("reverted to firmware 3.1.2") == true, "\(String(describing: error))")
            #expect(running.emulator.device.firmwareVersion() == "3.1.2")
            #expect(device.firmwareVersion == "3.1.2")
        }

        @Test func linkDropsDuringTheUploadResumeFromTheDeviceOffset() async throws {
            defer { fixture.remove() }
            let size = 400_000
            var random = SystemRandomNumberGenerator()
            let offsets = (0..<2).map { _ in Int.random(in: 30_000..<(size - 30_000), using: &random) }.sorted()
            let running = try fixture.start(
                .glasses, name: "OTA Drops",
                faults: ["ota-drop=\(offsets.map(String.init).joined(separator: ":")),ota-drop-ms=2500"])
            defer { running.stop() }
            let device = try await connect("OTA Drops")
            defer { device.disconnect() }
            let file = try image("drops.bin", version: "2.9.0", size: size)
            try await #require(device as? DeviceOtaAPI).startOta(withFilePath: file.path, progress: nil)
            #expect(device.firmwareVersion == "2.9.0")
            let accepted = running.emulator.device.firmwareBytesAccepted
            let total = try Data(contentsOf: URL(fileURLWithPath: file.path)).count
            #expect(accepted == total, "drops at \(offsets): the device accepted \(accepted) of \(total) bytes")
        }

        @Test func aCancelledUpdateResumesNextTime() async throws {
            defer { fixture.remove() }
            let running = try fixture.start(.glasses, name: "OTA Cancel", link: .ble)
            defer { running.stop() }
            let device = try await connect("OTA Cancel")
            defer { device.disconnect() }
            let ota = try #require(device as? DeviceOtaAPI)
            let file = try image("cancel.bin", version: "2.8.0", size: 150_000)
            let reached = Locked(0.0)
            let task = Task { try await ota.startOta(withFilePath: file.path) { value in reached.withLock { $0 = value } } }
            try await eventually("a third is uploaded") { reached.withLock { $0 } > 0.3 }
            task.cancel()
            let cancelled = await #expect(throws: (any Error).self) { try await task.value }
            #expect(cancelled != nil)
            let before = running.emulator.device.firmwareBytesAccepted
            #expect(before < 150_000 && running.emulator.device.firmwareVersion() == "2.4.1")
            try await eventually("the device is ready") { device.deviceState == .idle || device.deviceState == .busy }
            try await ota.startOta(withFilePath: file.path, progress: nil)
            let total = try Data(contentsOf: URL(fileURLWithPath: file.path)).count
            let accepted = running.emulator.device.firmwareBytesAccepted
            #expect(accepted < total + total / 10, "resumed: \(accepted) bytes accepted for a \(total)-byte image")
            #expect(device.firmwareVersion == "2.8.0")
        }

        @Test func powerLossDuringTheSwapBootsTheOldImage() async throws {
            defer { fixture.remove() }
            let first = try fixture.start(.glasses, name: "OTA Power", faults: ["power-loss=swap"])
            let port = first.address.port
            let device = try await connect("OTA Power")
            defer { device.disconnect() }
            let ota = try #require(device as? DeviceOtaAPI)
            let file = try image("power.bin", version: "2.7.0")
            let update = Task { try await ota.startOta(withFilePath: file.path, progress: nil) }
            try await eventually("the power fails during the swap") { !first.emulator.device.isPoweredOn }
            first.stop()
            let second = try fixture.start(.glasses, name: "OTA Power", port: port)
            defer { second.stop() }
            #expect(second.emulator.device.firmwareVersion() == "2.4.1")
            let error = await #expect(throws: AIBudsError.self) { try await update.value }
            #expect(error?.message.contains("reverted") == true, "\(String(describing: error))")
            // The uploaded image is still in the secondary slot, not pending.
            #expect(second.emulator.device.firmwareStates().contains { $0.slot == 1 && $0.hash == file.hash && !$0.isPending })
        }
    }
}
