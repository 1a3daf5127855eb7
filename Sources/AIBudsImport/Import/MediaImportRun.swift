import AIBudsDigest
import AIBudsFoundation
import AIBudsLog
import AIBudsWire
import Foundation
import Synchronization

/// One run of `importMediaFiles`: the transfer phase (parallel, verified downloads), the optional
/// deletion of verified files, then the stabilization phase. It reports every step through `emit`
/// and always returns a result; cancellation (of its task) ends it with error 6100.
struct MediaImportRun: Sendable {
    /// The transfer phase, which also holds the run's files, options, destination and services.
    let transfer: TransferPhase
    /// Deletes one device file through the engine (so that the engine learns the new generation).
    let deleteFromDevice: @Sendable (String) async throws -> Void
    /// Told `true` as the transfer phase (the device serving files) begins, `false` as it ends.
    let transferPhase: @Sendable (Bool) -> Void

    /// Runs the import; `emit` must be thread-safe (events of different files interleave).
    func run(emit: @escaping @Sendable (MediaImportEvent) -> Void) async -> (MediaImportResult, hotspotLost: Bool) {
        do {
            try FileManager.default.createDirectory(at: transfer.destination, withIntermediateDirectories: true)
        } catch {
            let failure = AIBudsError(
                .importFilesFailedDueToLocalFileError, "cannot create the import folder \(transfer.destination.path)", underlying: error)
            return (MediaImportResult(importedFiles: [], failures: transfer.files.map { MediaImportFailure(mediaFile: $0, error: failure) }, error: failure), false)
        }
        // One import at a time into a folder (docs/reliability.md §8): wait for another process's.
        let lock: ImportDestinationLock?
        do {
            if let given = transfer.options.destinationLock, given.folder.path == transfer.destination.standardizedFileURL.path {
                lock = given
            } else {
                lock = try await ImportDestinationLock.acquire(transfer.destination) { [logger = transfer.logger, destination = transfer.destination] in
                    logger.log(.info, "import", "another import into \(destination.path) is running; waiting for it to end")
                }
            }
        } catch is CancellationError {
            let failure = AIBudsError(.importFilesCanceled, "the import was cancelled while it waited for another import into \(transfer.destination.path)")
            return (MediaImportResult(importedFiles: [], failures: transfer.files.map { MediaImportFailure(mediaFile: $0, error: failure) }, error: failure), false)
        } catch {
            // A folder where no lock file can be made: the import goes on unguarded (it reports its
            // own failures to write there).
            transfer.logger.log(.warning, "import", "cannot lock \(transfer.destination.path) for the import: \(error)")
            lock = nil
        }
        defer { withExtendedLifetime(lock) {} }
        transferPhase(true)
        let outcomes = await transfer.run(emit: emit)
        transferPhase(false)

        var imported: [ImportedMediaFileModel] = []
        var verifiedNames: [String] = []
        var failures: [MediaImportFailure] = []
        var bytesFetched: [MediaFileName: UInt64] = [:]
        var sixAxisData: [MediaFileName: URL] = [:]
        var hotspotLost = false
        for (file, outcome) in zip(transfer.files, outcomes) {
            // Keyed by exact name: `String` would take an NFD twin for its NFC one.
            let key = MediaFileName(file.fileName)
            switch outcome {
            case .imported(let model, let verified, let bytes, let sidecar):
                imported.append(model)
                if let sidecar { sixAxisData[key] = sidecar }
                if verified { verifiedNames.append(file.fileName) }
                bytesFetched[key] = bytes
            case .failed(let error, let bytes):
                failures.append(MediaImportFailure(mediaFile: file, error: error))
                bytesFetched[key] = bytes
                if error.code == .importFilesFailedDueToDeviceHotspotConnectionLost { hotspotLost = true }
            case .notStarted:
                break
            }
        }

        if transfer.options.deletesVerifiedFilesFromDevice, !Task.isCancelled {
            for name in verifiedNames {
                do {
                    try await deleteFromDevice(name)
                } catch {
                    transfer.logger.log(.warning, "import", "could not delete \(name) from the device after importing it: \(error)")
                }
            }
        }

        if !Task.isCancelled {
            // The device's lens profile, once per import; without it the plugin uses its own.
            let channel = transfer.channel, logger = transfer.logger
            imported = await StabilizationPhase(stabilization: transfer.stabilization, logger: transfer.logger)
                .run(imported, sixAxisData: sixAxisData, lensProfile: {
                    do {
                        return try await channel.cameraLensProfile()
                    } catch {
                        logger.log(.warning, "import", "the device's lens profile could not be read (the plugin's own is used): \(error)")
                        return nil
                    }
                }, emit: emit)
        } else {
            imported = imported.map(StabilizationPhase.settled(transfer.stabilization))
        }

        let error: AIBudsError?
        if Task.isCancelled {
            error = AIBudsError(
                .importFilesCanceled,
                "the import was cancelled after \(imported.count) of \(transfer.files.count) files; the next import resumes the rest (files over 1 MiB from their partial downloads)")
        } else if let first = failures.first {
            error = AIBudsError(
                first.error.code,
                "\(failures.count) of \(transfer.files.count) files were not imported; first '\(first.mediaFile.fileName)': \(first.error.message)",
                underlying: first.error, deviceStatusCode: first.error.deviceStatusCode)
        } else {
            error = nil
        }
        var result = MediaImportResult(importedFiles: imported, failures: failures, error: error, bytesFetched: bytesFetched)
        result.ledgerError = transfer.ledgerFailure.first
        return (result, hotspotLost)
    }
}

/// A byte count shared by the threads of a transfer.
final class ByteCount: Sendable {
    private let storage = Atomic<UInt64>(0)
    /// The current count.
    var value: UInt64 { storage.load(ordering: .relaxed) }
    /// Adds `bytes`.
    func add(_ bytes: UInt64) { storage.add(bytes, ordering: .relaxed) }
    /// Replaces the count.
    func set(_ bytes: UInt64) { storage.store(bytes, ordering: .relaxed) }
}
