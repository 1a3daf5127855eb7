import AIBudsEmulator
import AIBudsFoundation
import AIBudsLog
import AIBudsNet
import AIBudsSMP
import AIBudsTestKit
import Foundation
import Testing
@testable import TopStepComKit

extension LoopbackEmulator {
    /// An emulated watch (`aibuds emulator --profile watch`) on a loopback UDP port.
    static func watch(files: [MediaSeed]? = nil, link: LinkProfile = .unlimited) throws -> LoopbackEmulator {
        let defaults = DeviceProfile.watch.defaultMedia.map { MediaSeed.generated($0.name.text, type: .audio, size: $0.size) }
        return try LoopbackEmulator(files: files ?? defaults, profile: .watch, link: link)
    }
}

/// The example of TopStep's media file documentation (the "seed" of the names here), in Swift,
/// against the emulator's watch profile over UDP. It initializes
/// `AIBudsSDK`, so it holds its state lock exclusively (see `SDKStateLock`).
@Suite(.serialized, .sdkState(.exclusive)) struct TopStepSeedExampleTests {
    @Test func theSeedExampleRunsAgainstTheWatch() async throws {
        let watch = try LoopbackEmulator.watch()
        defer { watch.stop() }
        let log = RecordingLogService(minimumLevel: .info)
        TopStepComKit.sharedInstance.logService = log
        TopStepComKit.sharedInstance.device = try await watch.connectedDevice()
        defer {
            TopStepComKit.sharedInstance.mediaFile.registerMediaFileListDidChangedBlock(nil)
            TopStepComKit.sharedInstance.device = nil
            TopStepComKit.sharedInstance.logService = NullLogService()
        }
        let recordingsFolder = FileManager.default.temporaryDirectory
            .appendingPathComponent("ts-seed-\(UUID().uuidString)/Recordings").path
        defer { try? FileManager.default.removeItem(atPath: (recordingsFolder as NSString).deletingLastPathComponent) }

        // Query capabilities and files.
        let mediaFile: any TSMediaFileInterface = TopStepComKit.sharedInstance.mediaFile
        let operations = mediaFile.supportedOperations(for: .audioRecording)
        #expect(operations.contains(.list) && !operations.contains(.deleteAll))

        var recordings: [TSMediaFileModel] = []
        if operations.contains(.list) {
            recordings = await withCheckedContinuation { continuation in
                mediaFile.fetchMediaFiles(of: .audioRecording) { files, error in
                    if let error {
                        TSLog("Failed to fetch recordings: %@", error.localizedDescription)
                        continuation.resume(returning: [])
                        return
                    }
                    TSLog("The device has %lu recordings", files?.count ?? 0)
                    continuation.resume(returning: files ?? [])
                }
            }
        }
        #expect(recordings.count == 3)

        // Observe list invalidation.
        let changes = Recorder<TSMediaFileType>()
        mediaFile.registerMediaFileListDidChangedBlock { type in
            TSLog("The %@ list is no longer valid", type.description)
            changes.append(type)
        }

        // Download a file into a folder that does not exist yet.
        let selectedFile = try #require(recordings.first)
        let progressSeen = Recorder<Double>()
        let savedPath: String? = await withCheckedContinuation { continuation in
            mediaFile.downloadMediaFile(selectedFile, localFolderPath: recordingsFolder, progress: { progress in
                progressSeen.append(progress)
            }, completion: { localFilePath, error in
                if let error {
                    TSLog("Download failed: %@", error.localizedDescription)
                    continuation.resume(returning: nil)
                    return
                }
                TSLog("Saved to: %@", localFilePath ?? "")
                continuation.resume(returning: localFilePath)
            })
        }
        let path = try #require(savedPath)
        #expect(path == recordingsFolder + "/" + selectedFile.fileName)
        #expect(progressSeen.values.last == 100)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == watch.content(of: selectedFile.fileName))

        // Delete it (the Delete capability was checked), then the list is invalid.
        #expect(operations.contains(.delete))
        let deleted: Bool = await withCheckedContinuation { continuation in
            mediaFile.deleteMediaFile(selectedFile) { isSuccess, error in
                if let error { TSLog("Delete failed: %@", error.localizedDescription) }
                continuation.resume(returning: isSuccess)
            }
        }
        #expect(deleted)
        try await eventually("changes.values == [.audioRecording]") { changes.values == [.audioRecording] }

        // A new recording on the watch invalidates the list once more.
        try watch.emulator.device.startRecording(video: false)
        _ = try watch.emulator.device.stopRecording(video: false)
        try await eventually("changes.values == [.audioRecording, .audioRecording]") { changes.values == [.audioRecording, .audioRecording] }

        // Unregister during teardown.
        mediaFile.registerMediaFileListDidChangedBlock(nil)
        #expect(log.messages.contains("The device has 3 recordings"))
        #expect(log.messages.contains("Saved to: \(path)"))
    }
}
