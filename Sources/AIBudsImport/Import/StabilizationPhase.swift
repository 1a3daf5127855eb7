import AIBudsFoundation
import AIBudsLog
import AIBudsTransfer
import AIBudsWire
import Foundation
import Synchronization

/// The optional post-processing phase: each downloaded file with six-axis data goes to the
/// registered plugin, one at a time; every other file gets its final status at once.
struct StabilizationPhase: Sendable {
    let stabilization: VideoStabilizationRegistry
    let logger: any LogService

    /// Returns `files` with their stabilization outcome; a cancellation stops after the current file
    /// (which is marked failed with 6100; files not reached stay `.pending`).
    /// `lensProfile` is asked for once, only when some file goes to a plugin.
    func run(
        _ files: [ImportedMediaFileModel], sixAxisData: [MediaFileName: URL], lensProfile: @Sendable () async -> Data? = { nil },
        emit: @escaping @Sendable (MediaImportEvent) -> Void
    ) async -> [ImportedMediaFileModel] {
        var results = files
        var queue: [(index: Int, plugin: any VideoStabilizationPlugin)] = []
        for (index, file) in files.enumerated() {
            switch stabilization.decision(for: file.metadata) {
            case .run(let plugin): queue.append((index, plugin))
            case .settle(let status): results[index] = file.withStabilization(status)
            }
        }
        guard !queue.isEmpty else { return results }
        let lens = await lensProfile()

        emit(.stabilizationBegan)
        for (position, item) in queue.enumerated() {
            if Task.isCancelled { break }
            emit(.stabilizationBatchProgress(index: position, total: queue.count))
            let file = files[item.index]
            results[item.index] = await stabilize(
                file, sixAxisData: sixAxisData[MediaFileName(file.metadata.fileName)], lensProfile: lens, with: item.plugin, emit: emit)
            emit(.stabilizationFileFinished(results[item.index], success: results[item.index].stabilizationStatus == .stabilized))
        }
        emit(.stabilizationFinished)
        return results
    }

    /// `file` with the status it gets without running a plugin (for a cancelled import).
    static func settled(_ registry: VideoStabilizationRegistry) -> @Sendable (ImportedMediaFileModel) -> ImportedMediaFileModel {
        { file in
            if case .settle(let status) = registry.decision(for: file.metadata) { return file.withStabilization(status) }
            return file
        }
    }

    private func stabilize(
        _ file: ImportedMediaFileModel, sixAxisData: URL?, lensProfile: Data?, with plugin: any VideoStabilizationPlugin,
        emit: @escaping @Sendable (MediaImportEvent) -> Void
    ) async -> ImportedMediaFileModel {
        let output = Self.outputURL(for: file.localFileURL)
        let job = VideoStabilizationJob(
            mediaFile: file, sourceURL: file.localFileURL, sixAxisDataURL: sixAxisData, outputURL: output, lensProfile: lensProfile)
        let open = ProgressGate()
        logger.log(.info, "import", "stabilizing \(file.metadata.fileName) with \(plugin.name)")
        do {
            try await plugin.stabilize(job) { progress in
                guard open.isOpen else { return }
                emit(.stabilizationProgress(file, progress: min(1, max(0, progress.isFinite ? progress : 0))))
            }
            open.close()
            try Task.checkCancellation()
            guard FileManager.default.fileExists(atPath: output.path) else {
                throw AIBudsError(.fileImportFailed, "\(plugin.name) reported success but wrote no file")
            }
            return file.withStabilization(.stabilized, stabilizedFileURL: output)
        } catch {
            open.close()
            try? FileManager.default.removeItem(at: output)
            let reason: AIBudsError
            if Task.isCancelled || error is CancellationError {
                reason = AIBudsError(.importFilesCanceled, "stabilizing '\(file.metadata.fileName)' was cancelled; the original is kept")
            } else {
                reason = AIBudsError(
                    .fileImportFailed, "stabilizing '\(file.metadata.fileName)' with \(plugin.name) failed; the original is kept: \(error)",
                    underlying: error)
            }
            logger.log(.warning, "import", reason.message)
            return file.withStabilization(.failed, error: reason.nsError)
        }
    }

    /// `<stem>.stabilized.<ext>` beside the original, numbered when taken.
    static func outputURL(for original: URL) -> URL {
        let directory = original.deletingLastPathComponent()
        let ext = original.pathExtension
        let stem = original.deletingPathExtension().lastPathComponent
        let base = ext.isEmpty ? "\(stem).stabilized" : "\(stem).stabilized.\(ext)"
        var counter = 1
        while true {
            let name = counter == 1 ? base : SafeFileName.numbered(base, counter)
            let url = directory.appendingPathComponent(name)
            if !FileManager.default.fileExists(atPath: url.path) { return url }
            counter += 1
        }
    }
}

/// Lets a plugin's progress reports through until its job has ended.
private final class ProgressGate: Sendable {
    private let closed = Atomic<Bool>(false)
    /// Whether reports still pass.
    var isOpen: Bool { !closed.load(ordering: .acquiring) }
    /// Stops every later report.
    func close() { closed.store(true, ordering: .releasing) }
}
