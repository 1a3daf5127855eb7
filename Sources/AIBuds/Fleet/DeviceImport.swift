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
            let files = configuration.onlyNew
                ? models.filter { !ledger.contains(name: $0.fileName, size: $0.fileSize ?? 0) } : models
            let importing = Set(files.map { MediaFileName($0.fileName) })
            outcome.requested = files
            outcome.skipped = models.filter { !importing.contains(MediaFileName($0.fileName)) }
            let transfers = share()
            emit(.started(deviceID: id, files: files, skipped: outcome.skipped, destination: folder, concurrentTransfers: transfers))
            let options = MediaImportOptions(
                destination: folder, maximumConcurrentTransfers: transfers, ledger: ledger,
                deletesVerifiedFilesFromDevice: configuration.deletesVerifiedFilesFromDevice,
                reportsProgress: configuration.reportsProgress)
            for await event in engine.importEvents(files, options: options) {
                emit(.progress(deviceID: id, event))
                if case .completed(let result) = event { outcome.result = result }
            }
            if outcome.result == nil {
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
