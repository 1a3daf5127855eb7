import AIBuds
import AIBudsFoundation
import AIBudsSync
import AIBudsTestKit
import Foundation
import Testing

/// The Swift usage example of the vendor's "Import Media Files" page (the "seed" of the names
/// here), the whole fetch-then-import block verbatim, against the emulator. Its `print` calls reach this suite's `print`, which records the lines.
extension SDKTests {
    @Suite("Import: the seed's usage example", .timeLimit(.minutes(3)))
    struct ImportSeedExampleTests {
        /// The lines the example printed.
        final class Output: Sendable {
            private let lines = Locked<[String]>([])
            var all: [String] { lines.withLock { $0 } }
            func append(_ line: String) { lines.withLock { $0.append(line) } }
        }

        let output = Output()

        /// Records a line instead of writing it, for the example's `print` calls.
        func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
            output.append(items.map { "\($0)" }.joined(separator: separator))
        }

        /// The example, verbatim from the vendor's page.
        func runSeedExample(_ device: AnyObject) {
            guard let device = device as? DeviceMediaFileImportAPI else { return }

            device.fetchMediaFilesInfo(
                configureHotspotStartingHandler: {
                    print("Configuring hotspot")
                },
                hotspotConfigureCompletionHandler: { success, error in
                    print(success ? "Hotspot configured" : "Configuration failed: \(error?.localizedDescription ?? "Unknown error")")
                },
                enterFileTransferModeStartingHandler: {
                    print("Entering file transfer mode")
                },
                enterFileTransferModeCompletedHandler: { success, error in
                    print(success ? "File transfer mode ready" : "Transfer mode failed: \(error?.localizedDescription ?? "Unknown error")")
                },
                waitingForHotspotOpenHandler: {
                    print("Waiting for the device hotspot")
                },
                connectDeviceHotspotStartingHandler: { ssid in
                    print("Connecting to \(ssid)")
                },
                deviceHotspotConnectCompletionHandler: { success, error in
                    print(success ? "Device hotspot connected" : "Connection failed: \(error?.localizedDescription ?? "Unknown error")")
                },
                completionHandler: { success, mediaFiles, error in
                    guard success, !mediaFiles.isEmpty else {
                        print(error?.localizedDescription ?? "No media available")
                        return
                    }

                    device.importMediaFiles(
                        mediaFiles,
                        dataChunkHandler: { _, taskID, fileURL, fileSize, transferredSize, error in
                            guard error == nil, fileSize > 0 else { return }
                            let progress = Double(transferredSize) / Double(fileSize)
                            print("\(taskID): \(fileURL) \(Int(progress * 100))%")
                        },
                        singleTransferStartingHandler: { mediaFile in
                            print("Starting \(mediaFile.fileName)")
                        },
                        singleTransferCompletionHandler: { success, importedFile, error in
                            print(success ? "Downloaded \(importedFile.metadata.fileName)" : "Download failed: \(error?.localizedDescription ?? "Unknown error")")
                        },
                        transferSpeedHandler: { bytesPerSecond in
                            print("Transfer speed: \(bytesPerSecond) B/s")
                        },
                        transferBatchProgressHandler: { index, total in
                            print("Transfer file \(index + 1) of \(total)")
                        },
                        videoStabilizationPhaseBeginHandler: {
                            print("Video stabilization started")
                        },
                        videoStabilizationSingleFileProgressHandler: { file, progress in
                            print("Stabilizing \(file.metadata.fileName): \(Int(progress * 100))%")
                        },
                        videoStabilizationSingleFileCompletionHandler: { file, success in
                            print("Stabilization \(success ? "completed" : "failed") for \(file.metadata.fileName)")
                        },
                        videoStabilizationBatchProgressHandler: { index, total in
                            print("Stabilization file \(index + 1) of \(total)")
                        },
                        videoStabilizationPhaseFinishHandler: {
                            print("Video stabilization finished")
                        },
                        completionHandler: { success, importedFiles, error in
                            print(success ? "Imported \(importedFiles.count) files" : (error?.localizedDescription ?? "Import failed"))
                        }
                    )
                }
            )
        }

        @Test func theSeedExampleImportsEveryFile() async throws {
            let fixture = try ImportEmulatorFixture([
                .photo("IMG_20260301_101500.jpg", 230_000), .video("VID_20260301_102000.mp4", 900_000),
                .audio("AUD_20260301_104000.m4a", 48_000),
            ])
            defer { fixture.stop() }
            let device = try await fixture.connect()
            defer { try? FileManager.default.removeItem(at: MediaImportEngine.defaultDestination(deviceID: device.mediaImportDeviceID)) }

            runSeedExample(device)
            // The import's last line; a stabilization plugin another test registered may fail a
            // video before it ("Stabilization failed for …"), which is not the end.
            try await eventually("the import's last line") {
                output.all.contains { $0.hasPrefix("Imported ") || ($0.contains("failed") && !$0.hasPrefix("Stabilization ")) }
            }
            let lines = output.all
            #expect(lines.last == "Imported 3 files", "\(lines.suffix(5))")
            #expect(Array(lines.prefix(5)) == [
                "Configuring hotspot", "Hotspot configured", "Entering file transfer mode", "File transfer mode ready",
                "Waiting for the device hotspot",
            ])
            #expect(lines.contains { $0.hasPrefix("Connecting to AIBuds-") })
            #expect(lines.contains("Device hotspot connected"))
            #expect(lines.filter { $0.hasPrefix("Starting ") }.count == 3)
            #expect(lines.filter { $0.hasPrefix("Downloaded ") }.count == 3)
            #expect(lines.contains("Transfer file 3 of 3"))
            #expect(lines.contains { $0.hasSuffix("100%") && $0.contains("VID_20260301_102000.mp4") })
            #expect(lines.filter { $0 == "Imported 3 files" }.count == 1)
            await fixture.shutdown()
        }
    }
}
