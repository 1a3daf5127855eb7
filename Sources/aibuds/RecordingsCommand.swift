import AIBuds
import AIBudsFoundation
import AIBudsWire
import Foundation
import TopStepComKit

/// What the `aibuds recordings` commands share: connecting `TopStepComKit.sharedInstance` to a
/// device, and awaiting the facade's main-queue completions.
enum Recordings {
    /// The `--device` option's help line.
    static let deviceHelp = "  --device D         the device: udp://HOST:PORT, or a name or MAC address from 'aibuds scan'"

    /// Reads the required `--device` option.
    static func deviceOption(_ arguments: inout Arguments) throws -> String {
        try arguments.required("--device")
    }

    /// Connects to the device that `spec` names (as the media commands do) and binds the TopStep
    /// kit to it.
    static func connect(_ spec: String) async throws -> TopStepComKit {
        DeviceCommandSupport.initializeSDK()
        let device = try await DeviceCommandSupport.connect(DeviceCommandSupport.find(spec), naming: spec)
        let kit = TopStepComKit.sharedInstance
        kit.device = device
        return kit
    }

    /// Connects to the device that `spec` names, runs `body` with the bound kit, and disconnects.
    static func withKit<Value>(_ spec: String, _ body: (TopStepComKit) async throws -> Value) async throws -> Value {
        let kit = try await connect(spec)
        do {
            let value = try await body(kit)
            await disconnect(kit)
            return value
        } catch {
            await disconnect(kit)
            throw error
        }
    }

    /// Ends the session with the device.
    static func disconnect(_ kit: TopStepComKit) async {
        kit.mediaFile.registerMediaFileListDidChangedBlock(nil)
        let device = kit.device
        kit.device = nil
        await device?.disconnectAndWait()
    }

    /// Lists the device's audio recordings, or fails the command.
    static func fetch(_ media: any TSMediaFileInterface) async throws -> [TSMediaFileModel] {
        let (files, error): ([TSMediaFileModel]?, NSError?) = await withCheckedContinuation { continuation in
            media.fetchMediaFiles(of: .audioRecording) { continuation.resume(returning: ($0, $1)) }
        }
        if let error { throw failure(error, "cannot list the recordings") }
        return files ?? []
    }

    /// Deletes one listed recording, or fails the command.
    static func delete(_ media: any TSMediaFileInterface, _ file: TSMediaFileModel) async throws {
        let error: NSError? = await withCheckedContinuation { continuation in
            media.deleteMediaFile(file) { _, error in continuation.resume(returning: error) }
        }
        if let error { throw failure(error, "cannot delete \(file.fileName)") }
    }

    /// Downloads one listed recording into `folder`; returns the local path, or fails the command.
    static func download(
        _ media: any TSMediaFileInterface, _ file: TSMediaFileModel, to folder: String,
        progress: (@MainActor @Sendable (Double) -> Void)? = nil
    ) async throws -> String {
        let (path, error): (String?, NSError?) = await withCheckedContinuation { continuation in
            media.downloadMediaFile(file, localFolderPath: folder, progress: progress) {
                continuation.resume(returning: ($0, $1))
            }
        }
        if let error { throw failure(error, "cannot download \(file.fileName)") }
        return path ?? ""
    }

    /// The command failure for a facade error: not connected exits 69, anything else 1.
    static func failure(_ error: NSError, _ what: String) -> CommandFailure {
        let message = "\(what): \(error.localizedDescription) (TopStep error \(error.code))"
        return error.code == 2003 ? .unavailable(message) : .failure(message)
    }

    /// The recordings named `names`, in that order; an unknown name fails the command.
    static func select(_ names: [String], from files: [TSMediaFileModel]) throws -> [TSMediaFileModel] {
        try names.map { name in
            guard let file = files.first(where: { MediaFileName.same($0.fileName, name) }) else {
                throw CommandFailure.failure("the device has no recording named '\(name)'")
            }
            return file
        }
    }
}
