import AIBudsDigest
import AIBudsLog
import Foundation

/// One download of a listed file: checks that the model is current, fetches the file into a
/// partial file (resuming it after a link drop), verifies it against the device's SHA-256, checks
/// that it is still the listed file, and moves it to a free final path.
struct MediaDownload: Sendable {
    /// The bound device.
    let channel: any MediaDeviceChannel
    /// The model to download.
    let model: TSMediaFileModel
    /// The destination folder as the app gave it.
    let folderPath: String
    /// Where progress goes.
    let reporter: ProgressReporter
    /// Where diagnostics go.
    let logService: any LogService

    /// How many transfer attempts one download makes before it gives up (the partial file stays,
    /// so a later download of the same model resumes it).
    static let maximumAttempts = 5

    /// Runs the download and returns the final local file.
    func run() async throws(TSError) -> URL {
        let identifier = try MediaFileIdentifier.validated(model, device: channel.deviceIdentity)
        let destination = try LocalDestination(folderPath: folderPath, deviceName: identifier.name)
        try await checkCurrent(identifier)

        let partial = destination.partialURL(device: identifier.device, id: identifier.id, name: identifier.name)
        try createPartial(partial)
        let total = try await transfer(identifier, into: partial)
        try await verify(identifier, partial: partial, size: total)
        try await checkStillListed(identifier, partial: partial)

        let final = try destination.place(partial)
        reporter.report(percent: 100)
        return final
    }

    /// Fails with `parameterError` unless the list the model came from is still the device's.
    private func checkCurrent(_ identifier: MediaFileIdentifier) async throws(TSError) {
        let change = try await channel.changed(since: identifier.generation, waitMilliseconds: 0)
        guard change.generation == identifier.generation else {
            throw TSError(.parameterError, "the list that '\(identifier.name)' came from is no longer current; fetch it again")
        }
    }

    /// After the transfer: if the list changed meanwhile, the file must still be listed with the
    /// same id, otherwise the bytes might belong to another file of the same name.
    private func checkStillListed(_ identifier: MediaFileIdentifier, partial: URL) async throws(TSError) {
        let change = try await channel.changed(since: identifier.generation, waitMilliseconds: 0)
        guard change.generation != identifier.generation else { return }
        let listing = try await channel.list(wireType: identifier.type)
        guard listing.files.contains(where: { $0.id == identifier.id && $0.name == identifier.name }) else {
            try? FileManager.default.removeItem(at: partial)
            throw TSError(.parameterError, "'\(identifier.name)' changed on the device during the download; fetch the list again")
        }
    }

    /// Creates the partial folder and file if needed.
    private func createPartial(_ partial: URL) throws(TSError) {
        do {
            try FileManager.default.createDirectory(at: partial.deletingLastPathComponent(), withIntermediateDirectories: true)
            if !FileManager.default.fileExists(atPath: partial.path) {
                guard FileManager.default.createFile(atPath: partial.path, contents: nil) else {
                    throw TSError(.dataSetFailed, "cannot create \(partial.path)")
                }
            }
        } catch let error as TSError {
            throw error
        } catch {
            throw TSError(.dataSetFailed, "cannot create \(partial.path)", underlying: error)
        }
    }

    /// Fetches the file into `partial` from its current length; resumes after transient failures.
    /// Returns the file's total size.
    private func transfer(_ identifier: MediaFileIdentifier, into partial: URL) async throws(TSError) -> UInt64 {
        var lastError: TSError?
        for attempt in 1...Self.maximumAttempts {
            if attempt > 1 {
                guard channel.isConnected else { throw lastError ?? TSError.notConnected }
                try? await Task.sleep(for: .milliseconds(100 * attempt))
            }
            do {
                let handle = try openForAppending(partial, limit: model.size)
                defer { try? handle.close() }
                let offset = try handle.seekToEnd()
                if attempt > 1 || offset > 0 {
                    logService.log(.info, "topstep", "download \(identifier.name): resuming at byte \(offset) (attempt \(attempt))")
                }
                let reporter = self.reporter
                let total = try await channel.download(name: identifier.name, appendingTo: handle, from: offset) { done, total in
                    reporter.report(done: done, of: total)
                }
                try handle.synchronize()
                return total
            } catch let error as TSError {
                guard Self.isTransient(error) else { throw error }
                logService.log(.warning, "topstep", "download \(identifier.name): \(error)")
                lastError = error
            } catch {
                throw TSError(.dataSetFailed, "cannot write \(partial.path)", underlying: error)
            }
        }
        throw lastError ?? TSError(.transmissionInterrupted, "the download of '\(identifier.name)' was interrupted")
    }

    /// Opens the partial file for appending; one longer than the listed size is started over.
    private func openForAppending(_ partial: URL, limit: UInt64?) throws -> FileHandle {
        let handle = try FileHandle(forUpdating: partial)
        if let limit, try handle.seekToEnd() > limit {
            try handle.truncate(atOffset: 0)
        }
        return handle
    }

    /// Compares the partial file with the device's size and SHA-256; a mismatch removes it.
    private func verify(_ identifier: MediaFileIdentifier, partial: URL, size: UInt64) async throws(TSError) {
        let expected = try await channel.sha256(name: identifier.name)
        let actual: [UInt8]
        let length: UInt64
        do {
            length = (try FileManager.default.attributesOfItem(atPath: partial.path)[.size] as? NSNumber)?.uint64Value ?? 0
            actual = try SHA256.hash(fileAt: partial)
        } catch {
            throw TSError(.dataGetFailed, "cannot read \(partial.path)", underlying: error)
        }
        guard length == size, actual == expected else {
            try? FileManager.default.removeItem(at: partial)
            throw TSError(.dataFormatError, "'\(identifier.name)' does not match the device's SHA-256 (\(length) of \(size) bytes); download it again")
        }
    }

    /// Whether a failure may pass if the transfer is resumed.
    static func isTransient(_ error: TSError) -> Bool {
        switch error.code {
        case .timeout, .transmissionInterrupted, .connectionReset, .packetLoss, .interference, .channelBusy: true
        default: false
        }
    }
}
