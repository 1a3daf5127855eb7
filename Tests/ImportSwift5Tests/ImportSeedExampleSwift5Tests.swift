import AIBuds
import AIBudsFoundation
import Testing

/// The Swift usage example of the vendor's "Import Media Files" page (the "seed" of the names here)
/// compiled in the Swift 5 language mode (AIBudsTests runs it, in Swift 6 mode, against the
/// emulator): handler aliases are `@Sendable` and the device protocols are class-bound and
/// `Sendable`, so the same text compiles in both.
struct ImportSeedExampleSwift5Tests {
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

    @Test func theExampleCompilesInSwift5Mode() {
        // Without a device that imports media the example returns at its first line.
        runSeedExample(NSObjectLike())
    }
}

/// An object that is not a device.
final class NSObjectLike {}
