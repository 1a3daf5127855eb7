import AIBudsFoundation
import AIBudsLog
import AIBudsTestKit
import Foundation
import Synchronization
import Testing

@testable import AIBuds
@testable import AIBudsImport

/// Each failing step of `fetchMediaFilesInfo` ends the chain with its own code, and the vendor
/// API's completion still runs exactly once.
extension SDKTests {
    @Suite("Import fetch failures", .timeLimit(.minutes(3)))
    struct ImportFetchFailureTests {
        @Test func aRejectedHotspotConfigurationIs6004WithTheDeviceStatus() async throws {
            let fixture = try ImportEmulatorFixture([.photo("A.jpg", 100)])
            defer { fixture.stop() }
            let device = try await fixture.connect()
            // The device accepts SSIDs of at most 32 bytes.
            let engine = MediaImportEngine(
                channel: device, stabilization: VideoStabilizationRegistry(),
                configuration: .init(ssidPrefix: String(repeating: "S", count: 40)))
            let calls = CallRecorder()
            engine.fetchMediaFilesInfo(calls: calls)
            let outcome = try await calls.waitForCompletion()
            #expect(calls.names == ["configureStarting", "configureCompleted(false)", "completion(false)"])
            #expect(outcome.code == SdkErrorCode.fileImportFailedDueToHotspotConfigureError.rawValue)
            #expect((outcome.userInfo[AIBudsError.deviceStatusCodeKey] as? NSNumber)?.intValue == 6)
            try await Task.sleep(for: .milliseconds(100))
            #expect(calls.names.filter { $0.hasPrefix("completion") }.count == 1)
            await fixture.shutdown()
        }

        @Test func aHotspotThatNeverOpensIs6006() async throws {
            let fixture = try ImportEmulatorFixture([.photo("A.jpg", 100)], faults: ["slow-hotspot=5000"])
            defer { fixture.stop() }
            let device = try await fixture.connect()
            let engine = MediaImportEngine(
                channel: device, stabilization: VideoStabilizationRegistry(),
                configuration: .init(hotspotOpenTimeout: .milliseconds(300)))
            let calls = CallRecorder()
            engine.fetchMediaFilesInfo(calls: calls)
            let outcome = try await calls.waitForCompletion()
            #expect(calls.names == [
                "configureStarting", "configureCompleted(true)", "enterStarting", "enterCompleted(true)", "waiting",
                "connectCompleted(false)", "completion(false)",
            ])
            #expect(outcome.code == SdkErrorCode.fileImportFailedDueToHotspotConnectionFailure.rawValue)
            #expect(outcome.localizedDescription.contains("did not open"))
            await fixture.shutdown()
        }

        @Test func aFailedJoinIs6006AndNeverLogsThePassphrase() async throws {
            let fixture = try ImportEmulatorFixture([.photo("A.jpg", 100)])
            defer { fixture.stop() }
            let device = try await fixture.connect()
            // NetworkManager refuses (a stand-in nmcli that echoes its arguments and the passphrase
            // it reads on its input, and fails).
            let tools = fixture.folder.appendingPathComponent("bin")
            try FileManager.default.createDirectory(at: tools, withIntermediateDirectories: true)
            let nmcli = tools.appendingPathComponent("nmcli")
            let secretFile = fixture.folder.appendingPathComponent("passphrase")
            try await writeExecutableScript(
                "#!/bin/sh\nIFS= read -r p\nprintf '%s' \"$p\" > '\(secretFile.path)'\necho \"Error: no network with $* $p\" >&2\nexit 10\n",
                to: nmcli)
            let log = RecordingLogService(redactor: LogRedactor())
            let joiner = NetworkManagerHotspotJoiner(attempts: 1, environment: ["PATH": tools.path], logger: log)
            let engine = MediaImportEngine(channel: device, joiner: joiner, stabilization: VideoStabilizationRegistry(), logger: log)
            let calls = CallRecorder()
            engine.fetchMediaFilesInfo(calls: calls)
            let outcome = try await calls.waitForCompletion()
            #expect(calls.names.suffix(3) == ["connectStarting", "connectCompleted(false)", "completion(false)"])
            #expect(outcome.code == SdkErrorCode.fileImportFailedDueToHotspotConnectionFailure.rawValue)
            let passphrase = try String(contentsOf: secretFile, encoding: .utf8)
            #expect(passphrase.count >= 16)
            #expect(!outcome.localizedDescription.contains(passphrase))
            #expect(log.messages.contains { $0.contains("nmcli") })
            #expect(!log.messages.contains { $0.contains(passphrase) })
            await fixture.shutdown()
        }

        @Test func aFailedTransferModeEntryIs6005() async throws {
            let fixture = try ImportEmulatorFixture([.photo("A.jpg", 100)])
            defer { fixture.stop() }
            let device = try await fixture.connect()
            // The device powers off between the two steps.
            let channel = ObservedChannel(device: device) { fixture.emulator.device.powerOff() }
            let engine = MediaImportEngine(channel: channel, stabilization: VideoStabilizationRegistry())
            let calls = CallRecorder()
            engine.fetchMediaFilesInfo(calls: calls)
            let outcome = try await calls.waitForCompletion(timeout: .seconds(40))
            #expect(calls.names == [
                "configureStarting", "configureCompleted(true)", "enterStarting", "enterCompleted(false)", "completion(false)",
            ])
            #expect(outcome.code == SdkErrorCode.fileImportFailedDueToEnterFileTransferModeFailed.rawValue)
            await fixture.shutdown()
        }
    }
}

extension SDKTests {
    @Suite("Import fetch cancellation", .timeLimit(.minutes(3)))
    struct ImportFetchCancellationTests {
        @Test func cancellingAFetchEndsItOnceAndTheDeviceIsNotBusy() async throws {
            let fixture = try ImportEmulatorFixture([.photo("A.jpg", 100)], faults: ["slow-hotspot=10000"])
            defer { fixture.stop() }
            let device = try await fixture.connect()
            let engine = MediaImportEngine(channel: device, stabilization: VideoStabilizationRegistry())
            let calls = CallRecorder()
            engine.fetchMediaFilesInfo(calls: calls)
            try await eventually("calls.names.contains(\"waiting\")") { calls.names.contains("waiting") }
            #expect(engine.isBusy)
            try await engine.cancel()
            let outcome = try await calls.waitForCompletion()
            #expect(outcome.code == SdkErrorCode.operationCanceled.rawValue)
            #expect(calls.names.suffix(2) == ["connectCompleted(false)", "completion(false)"])
            #expect(!engine.isBusy && !device.isBusy)
            let again = await #expect(throws: AIBudsError.self) { try await engine.cancel() }
            #expect(again?.code == .fileImportNotInProgress)
            await fixture.shutdown()
        }
    }
}
