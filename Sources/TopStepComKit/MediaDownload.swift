import AIBudsDigest
import AIBudsLog
import AIBudsWire
import Foundation

/// One download of a listed file: checks that the model is current, fetches the file into a
/// partial file (resuming it after a link drop), verifies it against the device's SHA-256, checks
/// that it is still the listed file, and moves it to a free final path.
struct MediaDownload: Sendable {
    /// The bound device.
    let channel: TSMediaChannel
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
        try await transfer(identifier, into: partial)
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
        guard listing.files.contains(where: { $0.id == identifier.id && MediaFileName.same($0.name, identifier.name) }) else {
            try? FileManager.default.removeItem(at: partial)
            throw TSError(.parameterError, "'\(identifier.name)' changed on the device during the download; fetch the list again")
        }
    }

    /// Creates the partial folder and file if needed.
    private func createPartial(_ partial: URL) throws(TSError) {
        do {
            try FileManager.default.createDirectory(at: partial.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw TSError(.dataSetFailed, "cannot create \(partial.deletingLastPathComponent().path)", underlying: error)
        }
        if !FileManager.default.fileExists(atPath: partial.path) {
            guard FileManager.default.createFile(atPath: partial.path, contents: nil) else {
                throw TSError(.dataSetFailed, "cannot create \(partial.path)")
            }
        }
    }

    /// Fetches the file into `partial`, resuming from its length after transient failures, until
    /// it matches the device's SHA-256; a mismatch starts over once.
    private func transfer(_ identifier: MediaFileIdentifier, into partial: URL) async throws(TSError) {
        var lastError: TSError?
        var restarted = false
        for attempt in 1...Self.maximumAttempts {
            if attempt > 1 {
                guard channel.isConnected else { throw lastError ?? TSError.notConnected }
                try? await Task.sleep(for: .milliseconds(100 * attempt))
            }
            do throws(TSError) {
                try await attemptTransfer(identifier, into: partial, attempt: attempt)
                return
            } catch {
                lastError = error
                if error.code == .dataFormatError, !restarted {
                    restarted = true
                    logService.log(.warning, "topstep", "download \(identifier.name): \(error); starting over")
                    try truncate(partial)
                    continue
                }
                if error.code == .dataFormatError { try? FileManager.default.removeItem(at: partial) }
                guard Self.isTransient(error) else { throw error }
                logService.log(.warning, "topstep", "download \(identifier.name): \(error)")
            }
        }
        throw lastError ?? TSError(.transmissionInterrupted, "the download of '\(identifier.name)' was interrupted")
    }

    /// One transfer attempt from the partial file's length, then the whole-file check.
    private func attemptTransfer(_ identifier: MediaFileIdentifier, into partial: URL, attempt: Int) async throws(TSError) {
        let handle: FileHandle
        let offset: UInt64
        do {
            handle = try FileHandle(forUpdating: partial)
            var length = try handle.seekToEnd()
            if let size = model.size, length > size {
                try handle.truncate(atOffset: 0)
                length = 0
            }
            offset = length
        } catch {
            throw TSError(.dataSetFailed, "cannot open \(partial.path)", underlying: error)
        }
        defer { try? handle.close() }
        if offset > 0 || attempt > 1 {
            logService.log(.info, "topstep", "download \(identifier.name): from byte \(offset) (attempt \(attempt))")
        }
        let reporter = self.reporter
        let result = try await channel.download(name: identifier.name, into: handle, from: offset) { done, total in
            reporter.report(done: done, of: total)
        }
        do {
            try handle.synchronize()
        } catch {
            throw TSError(.dataSetFailed, "cannot write \(partial.path)", underlying: error)
        }
        if !result.verifiedWhole {
            try await verifyWhole(identifier, partial: partial, size: result.size)
        }
    }

    /// Compares the whole partial file with the device's size and SHA-256.
    private func verifyWhole(_ identifier: MediaFileIdentifier, partial: URL, size: UInt64) async throws(TSError) {
        let expected = try await channel.sha256(name: identifier.name) ?? []
        if expected.isEmpty {
            logService.log(.warning, "topstep", "download \(identifier.name): the device has no SHA-256; checked the size only")
        }
        let length: UInt64
        let actual: [UInt8]
        do {
            length = (try FileManager.default.attributesOfItem(atPath: partial.path)[.size] as? NSNumber)?.uint64Value ?? 0
            actual = expected.isEmpty ? [] : try SHA256.hash(fileAt: partial)
        } catch {
            throw TSError(.dataGetFailed, "cannot read \(partial.path)", underlying: error)
        }
        guard length == size, actual == expected else {
            throw TSError(.dataFormatError, "'\(identifier.name)' does not match the device's SHA-256 (\(length) of \(size) bytes)")
        }
    }

    /// Empties the partial file so the next attempt starts from byte 0.
    private func truncate(_ partial: URL) throws(TSError) {
        do {
            let handle = try FileHandle(forWritingTo: partial)
            defer { try? handle.close() }
            try handle.truncate(atOffset: 0)
        } catch {
            throw TSError(.dataSetFailed, "cannot reset \(partial.path)", underlying: error)
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
