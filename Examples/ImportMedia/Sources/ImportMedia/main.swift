import AIBuds
import AIBudsFoundation
import AIBudsSMP
import Foundation

// usage: ImportMedia udp://HOST:PORT
//
// Connects to the device at that address (start one with `aibuds emulator --listen 127.0.0.1:0`)
// and runs the vendor's media import example on it. The imported files go to the SDK's default
// folder for imports (MediaImportOptions); stabilization needs a plugin this app does not register,
// so videos are kept as recorded.

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: ImportMedia udp://HOST:PORT\n".utf8))
    exit(64)
}

AIBudsSDK.initialize([SMPConnectSDK()])
let found = try await AIBudsSDK.discoverDevice(at: arguments[1])
guard let device = AIBudsSDK.makeStorableDeviceFromDiscovered(found) else {
    FileHandle.standardError.write(Data("no plugin can handle \(arguments[1])\n".utf8))
    exit(1)
}
try await device.connectAndWait(ConnectParams())
print("Connected to \(device.name)")

let finished = DispatchSemaphore(value: 0)
runSeedExample(device, finished: { finished.signal() })
await withCheckedContinuation { continuation in
    DispatchQueue.global().async {
        finished.wait()
        continuation.resume()
    }
}
await device.disconnectAndWait()

/// The example of the vendor's "Import Media Files" page, unchanged but for `finished()` after
/// its last `print` (so this program knows when to disconnect).
func runSeedExample(_ device: AnyObject, finished: @escaping @Sendable () -> Void) {
    guard let device = device as? DeviceMediaFileImportAPI else { return finished() }

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
                return finished()
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
                    finished()
                }
            )
        }
    )
}
