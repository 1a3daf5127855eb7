import AIBudsSync
import AIBudsFoundation
import AIBudsWire
import Foundation

/// The import from one device of a station: lock its folder, fetch its list, leave out what its
/// ledger has (`onlyNew`), import with the station's share of transfers, end the transfer session.
struct DeviceImport: Sendable {
    let device: any MediaImportControlChannel
    let id: String
    let configuration: MediaImportScheduler.Configuration
    let share: @Sendable () -> Int
    let emit: @Sendable (FleetImportEvent) -> Void

    func run() async -> FleetDeviceResult {
        let folder = configuration.destination.forDevice(id)
        var outcome = FleetDeviceResult(deviceID: id, destination: folder)
        if let store = configuration.destination.store { outcome.location = store.location(ofDevice: id) }
        let lock: ImportDestinationLock
        do {
            lock = try await ImportDestinationLock.acquire(folder)
        } catch {
            outcome.error = AIBudsError(.importFilesFailedDueToLocalFileError, "cannot lock \(folder.path) for the import", underlying: error)
            return outcome
        }
        defer { withExtendedLifetime(lock) {} }
        let engine = device.mediaImport
        do {
            var models: [MediaFileInfoModel] = []
            for try await event in engine.fetchEvents() {
                emit(.fetch(deviceID: id, event))
                if case .listed(let listed) = event { models = listed }
            }
            let ledger = try ImportLedger(deviceID: id, directory: folder.appendingPathComponent(".aibuds", isDirectory: true))
            outcome.ledger = ledger
            let store = configuration.destination.store
            var files = models
            if configuration.onlyNew {
                if let store {
                    // The store's ledger, beside the objects, knows what every station stored.
                    let listed = models
                    let known = try await runOnOwnThread(name: "aibuds-object-store") { _ in try listed.map { try store.hasImported(deviceID: id, name: $0.fileName, size: $0.fileSize ?? 0) } }
                    files = zip(models, known).filter { !$0.1 }.map(\.0)
                } else {
                    files = models.filter { !ledger.contains(name: $0.fileName, size: $0.fileSize ?? 0) }
                }
            }
            let importing = Set(files.map { MediaFileName($0.fileName) })
            outcome.requested = files
            outcome.skipped = models.filter { !importing.contains(MediaFileName($0.fileName)) }
            let transfers = share()
            emit(.started(deviceID: id, files: files, skipped: outcome.skipped, destination: folder, concurrentTransfers: transfers))
            // Files stored in an object store are deleted from the device only once stored.
            var options = MediaImportOptions(
                destination: folder, maximumConcurrentTransfers: transfers, ledger: ledger,
                deletesVerifiedFilesFromDevice: configuration.deletesVerifiedFilesFromDevice && store == nil,
                reportsProgress: configuration.reportsProgress || store != nil)
            // The import runs under the lock this device's import holds (taking it again would
            // wait for ever on this very import).
            options.destinationLock = lock
            // Files go from the device straight into the store; only those kept on disk for a
            // while (videos to stabilize) are staged, then stored.
            options.streaming = store.map { MediaObjectStreaming(store: $0, deviceID: id) }
            // Staged files (videos and their stabilized copies) go two at a time at least.
            let uploads = store.map { ObjectStoreUploads(store: $0, deviceID: id, parallelism: max(2, transfers)) }
            for await event in engine.importEvents(files, options: options) {
                if case .fileFinished(let model, _, nil) = event { uploads?.start(model) }
                if case .completed(let result) = event {
                    outcome.result = result
                    if let uploads {
                        let (stored, models) = await uploads.finish(result)
                        outcome.result = stored
                        for model in models { emit(.stored(deviceID: id, model)) }
                        if configuration.deletesVerifiedFilesFromDevice {
                            for model in models { _ = try? await engine.deleteMediaFile(named: model.metadata.fileName) }
                        }
                        emit(.progress(deviceID: id, .completed(stored)))
                        continue
                    }
                }
                if configuration.reportsProgress { emit(.progress(deviceID: id, event)) }
            }
            if outcome.result == nil, Task.isCancelled {
                // The event stream ends at once with the task; the import's own task is still
                // stopping its transfers (each keeps its partial download, an object store's
                // upload saves its state). Wait for it, so the station does not exit before.
                _ = try? await engine.cancel()
                outcome.error = AIBudsError(.importFilesCanceled, "the import of \(id) was cancelled")
            } else if outcome.result == nil {
                outcome.error = AIBudsError(.fileImportFailed, "the import of \(id) ended without a result")
            } else if Task.isCancelled, outcome.result?.error == nil {
                outcome.error = AIBudsError(.importFilesCanceled, "the import of \(id) was cancelled")
            }
        } catch {
            outcome.error = AIBudsError.from(error)
        }
        try? await engine.endTransferSession()
        return outcome
    }
}
