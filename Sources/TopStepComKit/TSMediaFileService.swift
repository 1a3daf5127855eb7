import AIBudsLog
import Foundation

/// The `TSMediaFileInterface` of a kit: checks the binding and the operation mask, runs each call
/// as a task against the bound device's channel, and delivers its completion once on the main queue.
final class TSMediaFileService: TSMediaFileInterface {
    /// The bound device's channel, or nil when no device is bound.
    private let channelSource: @Sendable () -> TSMediaChannel?
    /// The kit's log service.
    private let logService: @Sendable () -> any LogService
    /// The generation of the last list fetched from each device.
    private let fetchedGenerations = FetchedGenerations()
    /// The list-change observer.
    let observer: ChangeObserver

    /// Creates the service over a channel source.
    init(
        channelSource: @escaping @Sendable () -> TSMediaChannel?,
        logService: @escaping @Sendable () -> any LogService
    ) {
        self.channelSource = channelSource
        self.logService = logService
        self.observer = ChangeObserver(channelSource: channelSource, baselines: fetchedGenerations, logService: logService)
    }

    // MARK: TSMediaFileInterface

    func supportedOperations(for type: TSMediaFileType) -> TSMediaFileOperation {
        guard let channel = channelSource(), channel.isConnected else { return .none }
        return channel.supportedOperations(for: type)
    }

    func fetchMediaFiles(of type: TSMediaFileType, completion: TSMediaFileListBlock?) {
        let once = MainQueueOnce<Result<[TSMediaFileModel], TSError>>(completion.map { completion in
            { @MainActor result in completion(try? result.get(), result.failure?.nsError) }
        })
        run("list \(type)", requiring: .list, for: type, once: once) { channel throws(TSError) in
            try await self.list(type, on: channel)
        }
    }

    func downloadMediaFile(
        _ mediaFile: TSMediaFileModel,
        localFolderPath: String,
        progress: TSMediaFileDownloadProgressBlock?,
        completion: TSMediaFileDownloadCompletionBlock?
    ) {
        let reporter = ProgressReporter(progress)
        let once = MainQueueOnce<Result<String, TSError>>(completion.map { completion in
            { @MainActor result in completion(try? result.get(), result.failure?.nsError) }
        })
        run("download \(mediaFile.fileName)", requiring: .download, for: mediaFile.type, once: once, reporter: reporter) {
            channel throws(TSError) in
            let download = MediaDownload(channel: channel, model: mediaFile, folderPath: localFolderPath,
                                         reporter: reporter, logService: self.logService())
            return try await download.run().path
        }
    }

    func deleteMediaFile(_ mediaFile: TSMediaFileModel, completion: TSCompletionBlock?) {
        let once = MainQueueOnce<Result<Void, TSError>>(completion.map { completion in
            { @MainActor result in completion(result.failure == nil, result.failure?.nsError) }
        })
        run("delete \(mediaFile.fileName)", requiring: .delete, for: mediaFile.type, once: once) { channel throws(TSError) in
            let identifier = try MediaFileIdentifier.validated(mediaFile, device: channel.deviceIdentity)
            _ = try await channel.delete(name: identifier.name, generation: identifier.generation)
        }
    }

    func deleteAllMediaFiles(of type: TSMediaFileType, completion: TSCompletionBlock?) {
        let once = MainQueueOnce<Result<Void, TSError>>(completion.map { completion in
            { @MainActor result in completion(result.failure == nil, result.failure?.nsError) }
        })
        run("delete all \(type)", requiring: .deleteAll, for: type, once: once) { channel throws(TSError) in
            guard let wireType = type.wireType else { throw TSError(.invalidType, "cannot delete files of an unknown type") }
            _ = try await channel.deleteAll(wireType: wireType)
        }
    }

    func registerMediaFileListDidChangedBlock(_ changeBlock: TSMediaFileListDidChangedBlock?) {
        observer.register(changeBlock)
    }

    // MARK: Operations

    /// Lists the files of `type` and remembers the list's generation.
    func list(_ type: TSMediaFileType, on channel: TSMediaChannel) async throws(TSError) -> [TSMediaFileModel] {
        guard let wireType = type.wireType else { throw TSError(.invalidType, "cannot list files of an unknown type") }
        let listing = try await channel.list(wireType: wireType)
        let device = channel.deviceIdentity
        fetchedGenerations.record(listing.generation, for: device)
        return listing.files.filter { $0.type.rawValue == wireType }.map { entry in
            let identifier = MediaFileIdentifier(device: device, generation: listing.generation, id: entry.id,
                                                 name: entry.name, type: wireType)
            return TSMediaFileModel(identifier: identifier.encoded, fileName: entry.name, type: type,
                                    fileSize: NSNumber(value: entry.size))
        }
    }

    /// The bound channel if it is connected and supports `operation` for `type`; otherwise the
    /// error, decided without a request to the device.
    private func channel(for operation: TSMediaFileOperation, _ type: TSMediaFileType) throws(TSError) -> TSMediaChannel {
        guard let channel = channelSource(), channel.isConnected else { throw TSError.notConnected }
        guard channel.supportedOperations(for: type).contains(operation) else { throw TSError.notSupported(operation, type) }
        return channel
    }

    /// Runs one operation: checks, then the body in a task; delivers the result exactly once.
    private func run<Value: Sendable>(
        _ what: String,
        requiring operation: TSMediaFileOperation,
        for type: TSMediaFileType,
        once: MainQueueOnce<Result<Value, TSError>>,
        reporter: ProgressReporter? = nil,
        _ body: @escaping @Sendable (TSMediaChannel) async throws(TSError) -> Value
    ) {
        let log = logService()
        let channel: TSMediaChannel
        do {
            channel = try self.channel(for: operation, type)
        } catch {
            log.log(.warning, "topstep", "\(what): \(error)")
            reporter?.finish()
            once.deliver(.failure(error))
            return
        }
        Task {
            let result: Result<Value, TSError>
            do throws(TSError) {
                result = .success(try await body(channel))
                log.log(.debug, "topstep", "\(what): done")
            } catch {
                result = .failure(error)
                log.log(.warning, "topstep", "\(what): \(error)")
            }
            reporter?.finish()
            once.deliver(result)
        }
    }
}

extension Result {
    /// The error of a failure, nil on success.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
