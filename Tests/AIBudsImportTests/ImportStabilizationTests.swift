import AIBudsFoundation
import AIBudsTestKit
import Foundation
import Testing

@testable import AIBuds
@testable import AIBudsImport

/// The stabilization phase's contract, through the vendor import API's callbacks, with test plugins.
extension SDKTests {
    @Suite("Import stabilization phase", .timeLimit(.minutes(3)))
    struct ImportStabilizationTests {
        /// Copies the video as its "stabilized" version after reporting progress.
        final class CopyingPlugin: VideoStabilizationPlugin {
            let name = "copy"
            func stabilize(_ job: VideoStabilizationJob, progress: @escaping @Sendable (Double) -> Void) async throws {
                guard let data = job.sixAxisDataURL, FileManager.default.fileExists(atPath: data.path) else {
                    throw AIBudsError(.unknown, "no six-axis data")
                }
                progress(0.5)
                try FileManager.default.copyItem(at: job.sourceURL, to: job.outputURL)
                progress(1)
            }
        }

        /// Fails half-way, leaving a stray output behind.
        final class FailingPlugin: VideoStabilizationPlugin {
            let name = "broken"
            func stabilize(_ job: VideoStabilizationJob, progress: @escaping @Sendable (Double) -> Void) async throws {
                progress(0.5)
                try Data("half".utf8).write(to: job.outputURL)
                throw AIBudsError(.unknown, "the gyro data is corrupt")
            }
        }

        /// Takes a minute per file unless cancelled.
        final class SlowPlugin: VideoStabilizationPlugin {
            let name = "slow"
            func stabilize(_ job: VideoStabilizationJob, progress: @escaping @Sendable (Double) -> Void) async throws {
                progress(0.1)
                try await Task.sleep(for: .seconds(60))
            }
        }

        private static let media: [ImportTestMedia] = [
            .video("VID_1.mp4", 200_000), .video("VID_2.mp4", 150_000), .photo("IMG_1.jpg", 10_000),
            .video("VID_plain.mp4", 50_000, sixaxis: false),
        ]

        private func importAll(plugin: (any VideoStabilizationPlugin)?, disabled: Bool = false)
            async throws -> (ImportCallRecorder, NSError?, ImportEmulatorFixture)
        {
            let fixture = try ImportEmulatorFixture(Self.media)
            let device = try await fixture.connect()
            let registry = VideoStabilizationRegistry(plugin: plugin, isDisabled: disabled)
            var configuration = MediaImportEngine.Configuration()
            configuration.importOptions.destination = fixture.destination()
            let engine = MediaImportEngine(channel: device, stabilization: registry, configuration: configuration)
            #expect(engine.isVideoStabilizationAvailable == (plugin != nil && !disabled))
            let (_, models) = try await fetchAll(engine)
            let recorder = ImportCallRecorder()
            engine.importMediaFiles(models, recorder: recorder)
            let error = try await recorder.calls.waitForAnyCompletion()
            return (recorder, error, fixture)
        }

        private func status(_ recorder: ImportCallRecorder, _ name: String) -> ImportedMediaFileModel? {
            recorder.files.first { $0.metadata.fileName == name }
        }

        @Test func aWorkingPluginStabilizesSixAxisVideosAfterTheTransfers() async throws {
            let (recorder, error, fixture) = try await importAll(plugin: CopyingPlugin())
            defer { fixture.stop() }
            #expect(error == nil)
            let names = recorder.calls.names
            #expect(names.last == "completion(true, 4)")
            let begin = try #require(names.firstIndex(of: "stabilizationBegin"))
            #expect(names[..<begin].filter { $0.hasPrefix("transferCompleted") }.count == 4)
            #expect(names[begin...].filter { $0.hasPrefix("transfer") }.isEmpty)
            #expect(names[begin...].filter { $0.hasPrefix("stabilizationBatch") } == ["stabilizationBatch(0/2)", "stabilizationBatch(1/2)"])
            #expect(names[begin...].filter { $0.hasPrefix("stabilizationCompleted") }.allSatisfy { $0.hasSuffix("true)") })
            #expect(names.contains("stabilizationProgress(VID_1.mp4, 0.5)"))
            #expect(names.firstIndex(of: "stabilizationFinish") == names.count - 2)
            #expect(recorder.chunks > 0 && recorder.dataBytes == 410_000)
            for name in ["VID_1.mp4", "VID_2.mp4"] {
                let file = try #require(status(recorder, name))
                #expect(file.stabilizationStatus == .stabilized)
                let stabilized = try #require(file.stabilizedFileURL)
                #expect(try Data(contentsOf: stabilized) == Data(contentsOf: file.localFileURL))
                #expect(file.playableFileURL == stabilized)
            }
            #expect(status(recorder, "IMG_1.jpg")?.stabilizationStatus == .skipped)
            #expect(status(recorder, "VID_plain.mp4")?.stabilizationStatus == .skipped)
            await fixture.shutdown()
        }

        @Test func aFailingPluginKeepsTheOriginal() async throws {
            let (recorder, error, fixture) = try await importAll(plugin: FailingPlugin())
            defer { fixture.stop() }
            #expect(error == nil)
            #expect(recorder.calls.names.last == "completion(true, 4)")
            for name in ["VID_1.mp4", "VID_2.mp4"] {
                let file = try #require(status(recorder, name))
                #expect(file.stabilizationStatus == .failed)
                #expect(file.stabilizedFileURL == nil)
                #expect(file.playableFileURL == file.localFileURL)
                #expect(FileManager.default.fileExists(atPath: file.localFileURL.path))
                #expect(file.error?.localizedDescription.contains("gyro data is corrupt") == true)
            }
            #expect(recorder.stabilized.count == 2)
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: fixture.destination().path).filter { $0.contains("stabilized") }
            #expect(leftovers.isEmpty)
            await fixture.shutdown()
        }

        @Test func withoutAPluginOrWhenDisabledNoPhaseRuns() async throws {
            for disabled in [false, true] {
                let (recorder, error, fixture) = try await importAll(plugin: disabled ? CopyingPlugin() : nil, disabled: disabled)
                defer { fixture.stop() }
                #expect(error == nil)
                #expect(!recorder.calls.names.contains { $0.hasPrefix("stabilization") })
                #expect(status(recorder, "VID_1.mp4")?.stabilizationStatus == (disabled ? .disabled : .pluginUnavailable))
                #expect(status(recorder, "IMG_1.jpg")?.stabilizationStatus == .skipped)
                await fixture.shutdown()
            }
        }

        @Test func cancellingDuringStabilizationEndsTheImportOnce() async throws {
            let fixture = try ImportEmulatorFixture(Self.media)
            defer { fixture.stop() }
            let device = try await fixture.connect()
            var configuration = MediaImportEngine.Configuration()
            configuration.importOptions.destination = fixture.destination()
            let engine = MediaImportEngine(
                channel: device, stabilization: VideoStabilizationRegistry(plugin: SlowPlugin()), configuration: configuration)
            let (_, models) = try await fetchAll(engine)
            let recorder = ImportCallRecorder()
            engine.importMediaFiles(models, recorder: recorder)
            try await eventually("recorder.calls.names.contains { $0.hasPrefix(\"stabilizationProgress\") }") { recorder.calls.names.contains { $0.hasPrefix("stabilizationProgress") } }

            // A second import while this one runs is refused.
            let second = ImportCallRecorder()
            engine.importMediaFiles(models, recorder: second)
            let refused = try await second.calls.waitForCompletion()
            #expect(refused.code == SdkErrorCode.fileImportAlreadyInProgress.rawValue)

            let cancel = CallRecorder()
            engine.cancelMediaFileImport { success, statusCode, error in
                cancel.complete("cancel(\(success), \(statusCode.map { "\($0)" } ?? "nil"))", error)
            }
            #expect(try await cancel.waitForAnyCompletion() == nil)
            let error = try await recorder.calls.waitForCompletion()
            #expect(error.code == SdkErrorCode.importFilesCanceled.rawValue)
            #expect(cancel.names == ["cancel(true, nil)"])
            try await Task.sleep(for: .milliseconds(100))
            #expect(recorder.calls.names.filter { $0.hasPrefix("completion") } == ["completion(false, 4)"])
            // The phase ends as it began, its finish before the import's completion.
            let names = recorder.calls.names
            #expect(names.filter { $0 == "stabilizationBegin" }.count == 1 && names.filter { $0 == "stabilizationFinish" }.count == 1)
            #expect(names.firstIndex(of: "stabilizationFinish")! < names.firstIndex { $0.hasPrefix("completion") }!)
            #expect(status(recorder, "VID_1.mp4")?.stabilizationStatus == .failed)
            #expect(status(recorder, "VID_2.mp4")?.stabilizationStatus == .pending)
            #expect(status(recorder, "IMG_1.jpg")?.stabilizationStatus == .skipped)

            // Nothing runs now: cancelling again is 6003.
            let idle = CallRecorder()
            engine.cancelMediaFileImport { success, statusCode, error in idle.complete("cancel(\(success), \(String(describing: statusCode)))", error) }
            let notRunning = try await idle.waitForCompletion()
            #expect(notRunning.code == SdkErrorCode.fileImportNotInProgress.rawValue)
            #expect(idle.names == ["cancel(false, nil)"])
            await fixture.shutdown()
        }
    }
}
