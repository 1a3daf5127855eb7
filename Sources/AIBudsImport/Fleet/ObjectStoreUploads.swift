import AIBudsFoundation
import AIBudsSync
import AIBudsWire
import Foundation

/// The uploads of one device's staged files into an object store (those the import kept on disk,
/// such as videos to stabilize; the others were streamed into it): each file is stored as soon
/// as the engine reports it imported (so uploads overlap the downloads of the other files), at
/// most `parallelism` at a time, each on a thread of its own (the store's calls block).
final class ObjectStoreUploads: Sendable {
    private let store: any MediaObjectStore
    private let deviceID: String
    private let slots: DispatchSemaphore
    private let uploads = Locked<[MediaFileName: Task<Result<URL, AIBudsError>, Never>]>([:])

    init(store: any MediaObjectStore, deviceID: String, parallelism: Int) {
        self.store = store
        self.deviceID = deviceID
        slots = DispatchSemaphore(value: max(1, parallelism))
    }

    /// Starts storing the imported file of `model` (a file streamed into the store is there already).
    func start(_ model: ImportedMediaFileModel) {
        guard model.objectURL == nil else { return }
        let task = Task { await self.upload(model.localFileURL, name: model.metadata.fileName, sha256: model.sha256, companion: nil) }
        uploads.withLock { $0[MediaFileName(model.metadata.fileName)] = task }
    }

    /// Waits for every upload; returns the import's result with each stored file's object URLs
    /// (the stabilized copies are stored here, beside their originals), files that could not be
    /// stored moved to the failures, and the staged copies of stored files removed.
    func finish(_ result: MediaImportResult) async -> (MediaImportResult, stored: [ImportedMediaFileModel]) {
        var imported: [ImportedMediaFileModel] = []
        var failures = result.failures
        for model in result.importedFiles {
            if model.objectURL != nil {
                imported.append(model)
                continue
            }
            let task = uploads.withLock { $0[MediaFileName(model.metadata.fileName)] }
                ?? Task { await self.upload(model.localFileURL, name: model.metadata.fileName, sha256: model.sha256, companion: nil) }
            switch await task.value {
            case .failure(let error):
                failures.append(MediaImportFailure(mediaFile: model.metadata, error: error))
            case .success(let url):
                var stabilizedURL: URL?
                if let stabilized = model.stabilizedFileURL {
                    switch await upload(stabilized, name: model.metadata.fileName, sha256: nil, companion: stabilized.lastPathComponent) {
                    case .success(let url): stabilizedURL = url
                    case .failure(let error):
                        failures.append(MediaImportFailure(mediaFile: model.metadata, error: error))
                        continue
                    }
                    try? FileManager.default.removeItem(at: stabilized)
                }
                try? FileManager.default.removeItem(at: model.localFileURL)
                imported.append(model.withObjectURLs(url, stabilized: stabilizedURL))
            }
        }
        var error = result.error
        if error == nil, let first = failures.first {
            error = AIBudsError(first.error.code, "\(failures.count) files were not stored: \(first.error.message)", underlying: first.error)
        }
        var stored = result
        stored.importedFiles = imported
        stored.failures = failures
        stored.error = error
        return (stored, imported)
    }

    private func upload(_ file: URL, name: String, sha256: String?, companion: String?) async -> Result<URL, AIBudsError> {
        let digest: [UInt8]?
        if let sha256 {
            digest = Self.bytes(hex: sha256)
        } else {
            digest = nil
        }
        return await withCheckedContinuation { (done: CheckedContinuation<Result<URL, AIBudsError>, Never>) in
            let thread = Thread { [self] in
                slots.wait()
                defer { slots.signal() }
                do {
                    let url = try store.store(
                        file: file, deviceID: deviceID, name: name, sha256: digest ?? [], companionName: companion)
                    done.resume(returning: .success(url))
                } catch {
                    done.resume(returning: .failure(AIBudsError(
                        .fileImportFailed, "storing \(name) in \(store.location(ofDevice: deviceID)) failed: \(error)", underlying: error)))
                }
            }
            thread.name = "aibuds-object-upload"
            thread.start()
        }
    }

    private static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
        }
        return bytes
    }
}
