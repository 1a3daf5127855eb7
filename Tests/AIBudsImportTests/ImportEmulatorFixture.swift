import AIBuds
import AIBudsImport
import AIBudsEmulator
import AIBudsFoundation
import AIBudsNet
import AIBudsSMP
import AIBudsSync
import AIBudsTestKit
import AIBudsWire
import Foundation

/// One file of a test emulator's media: generated content of `size` bytes.
struct ImportTestMedia: Encodable {
    var name: String
    var type: String
    var size: UInt64
    var sixaxis: Bool = false
    var seed: UInt64 = 7

    static func photo(_ name: String, _ size: UInt64) -> ImportTestMedia { .init(name: name, type: "image", size: size) }
    static func video(_ name: String, _ size: UInt64, sixaxis: Bool = true) -> ImportTestMedia {
        .init(name: name, type: "video", size: size, sixaxis: sixaxis)
    }
    static func audio(_ name: String, _ size: UInt64) -> ImportTestMedia { .init(name: name, type: "audio", size: size) }
}

/// A real emulated pair of glasses on a loopback port, with a temporary folder for the test.
final class ImportEmulatorFixture: Sendable {
    /// The emulator.
    let emulator: Emulator
    /// Its address, `udp://127.0.0.1:PORT`.
    let address: String
    /// Its SMP socket address.
    let socketAddress: SocketAddress
    /// A temporary folder for this test (manifest, state, import destinations).
    let folder: URL
    /// The devices connected through ``connect()``, disconnected by ``stop()``.
    private let devices = Locked<[SMPGlassesDevice]>([])
    private let stopped = Locked(false)

    /// Starts glasses holding `media`, with `faults` (`--fault` specs); `configure` may change the
    /// rest of the configuration.
    init(
        _ media: [ImportTestMedia], faults: [String] = [], configure: (inout EmulatorConfiguration) -> Void = { _ in },
        test: String = #function
    ) throws {
        folder = try makeTemporaryDirectory("import-\(test)")
        let manifest = folder.appendingPathComponent("manifest.json")
        try JSONEncoder().encode(media).write(to: manifest)
        var configuration = try EmulatorConfiguration(
            profile: "glasses", listen: "127.0.0.1:0", name: "Test Glasses", media: nil, manifest: manifest.path,
            state: nil, link: nil, faults: faults, recordEvery: nil, hotspotOpen: false, token: nil)
        configuration.announce = false
        configure(&configuration)
        emulator = try Emulator(configuration: configuration)
        socketAddress = try emulator.start()
        address = "udp://\(socketAddress)"
    }

    fileprivate func remember(_ device: SMPGlassesDevice) { devices.withLock { $0.append(device) } }

    /// A fresh folder inside the test folder.
    func destination(_ name: String = "import") -> URL {
        folder.appendingPathComponent(name, isDirectory: true)
    }

    /// The SHA-256 of a device file, from the emulator's own store.
    func sha256(of name: String) throws -> [UInt8] {
        let store = emulator.device.store
        guard let object = store.object(named: MediaFileName(name)) else { throw AIBudsError(.unknown, "no \(name)") }
        guard case .sha256(let digest) = try store.digest(.sha256, of: object).digest else { throw AIBudsError(.unknown, "no digest") }
        return digest
    }

    /// Disconnects the devices, waits until their last delegate callback is delivered (the SDK's
    /// delegate is process-wide), then stops the emulator and removes the folder.
    func shutdown() async {
        for device in devices.withLock({ $0 }) { await device.disconnectAndWait() }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            AIBudsCall.callbackQueue.async { done.resume() }
        }
        stop()
    }

    /// Disconnects the devices (without waiting), stops the emulator and removes the folder.
    func stop() {
        guard stopped.withLock({ stopped in defer { stopped = true }; return !stopped }) else { return }
        for device in devices.withLock({ $0 }) { device.disconnect() }
        emulator.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}

/// The events of one import and its result.
struct ImportRun {
    var events: [MediaImportEvent] = []
    var result = MediaImportResult(importedFiles: [], failures: [], error: AIBudsError(.unknown, "no result"))

    /// Consumes `stream` to its end; `progress` (when given) follows the bytes transferred.
    static func collect(_ stream: AsyncStream<MediaImportEvent>, progress: ByteProgress? = nil) async -> ImportRun {
        var run = ImportRun()
        for await event in stream {
            run.events.append(event)
            if case .chunk(let chunk) = event { progress?.set(chunk.transferredSize) }
            if case .completed(let result) = event { run.result = result }
        }
        return run
    }

    /// The file names of `fileStarted` events, in order.
    var started: [String] {
        events.compactMap { if case .fileStarted(let file, _) = $0 { return file.fileName } else { return nil } }
    }

    /// The `fileFinished` events: name and error code.
    var finished: [(name: String, error: SdkErrorCode?)] {
        events.compactMap {
            if case .fileFinished(let model, _, let error) = $0 { return (model.metadata.fileName, error?.code) } else { return nil }
        }
    }
}

/// Fetches the media list with `engine`, returning the events and the models.
func fetchAll(_ engine: MediaImportEngine) async throws -> (events: [MediaFetchEvent], models: [MediaFileInfoModel]) {
    var events: [MediaFetchEvent] = []
    for try await event in engine.fetchEvents() { events.append(event) }
    guard case .listed(let models)? = events.last else { throw AIBudsError(.unknown, "the fetch listed nothing") }
    return (events, models)
}

extension MediaImportEngine {
    /// `fetchMediaFilesInfo` with every callback recorded by `calls`.
    func fetchMediaFilesInfo(calls: CallRecorder) {
        fetchMediaFilesInfo(
            configureHotspotStartingHandler: { calls.record("configureStarting") },
            hotspotConfigureCompletionHandler: { success, _ in calls.record("configureCompleted(\(success))") },
            enterFileTransferModeStartingHandler: { calls.record("enterStarting") },
            enterFileTransferModeCompletedHandler: { success, _ in calls.record("enterCompleted(\(success))") },
            waitingForHotspotOpenHandler: { calls.record("waiting") },
            connectDeviceHotspotStartingHandler: { _ in calls.record("connectStarting") },
            deviceHotspotConnectCompletionHandler: { success, _ in calls.record("connectCompleted(\(success))") },
            completionHandler: { success, files, error in
                calls.complete("completion(\(success))", error)
            })
    }
}

/// A device's control channel that passes every call on to the real device, runs `beforeEnter`
/// just before entering transfer mode (to inject a fault on the device at that moment), and counts
/// the File-group hash requests.
final class ObservedChannel: MediaImportControlChannel {
    let device: any MediaImportControlChannel
    let beforeEnter: @Sendable () -> Void
    private let hashCount = Locked(0)
    private let importEngine = LazyMediaImportEngine()

    init(device: any MediaImportControlChannel, beforeEnter: @escaping @Sendable () -> Void = {}) {
        self.device = device
        self.beforeEnter = beforeEnter
    }

    /// The `mediaFileSHA256` calls so far.
    var hashRequests: Int { hashCount.withLock { $0 } }

    /// The engine of this channel, made on first use.
    var mediaImport: MediaImportEngine { importEngine.engine(for: self) }

    var hotspotState: HotspotState { device.hotspotState }
    var mediaImportDeviceID: String { device.mediaImportDeviceID }
    func configureHotspot(withMode mode: HotspotMode, channel: Int, ssid: String, password: String) async throws -> NSNumber? {
        try await device.configureHotspot(withMode: mode, channel: channel, ssid: ssid, password: password)
    }
    func enterFileTransferMode() async throws {
        beforeEnter()
        try await device.enterFileTransferMode()
    }
    func leaveFileTransferMode() async throws { try await device.leaveFileTransferMode() }
    func cancelFileTransfer() async throws { try await device.cancelFileTransfer() }
    func requestQueryHotspotStatus() async throws -> HotspotStatusInfo { try await device.requestQueryHotspotStatus() }
    func listMediaFiles(type: MediaFileType?) async throws -> DeviceMediaListing { try await device.listMediaFiles(type: type) }
    func deleteMediaFile(named name: String, generation: UInt64?) async throws -> UInt64 {
        try await device.deleteMediaFile(named: name, generation: generation)
    }
    func deleteAllMediaFiles(type: MediaFileType?) async throws -> (generation: UInt64, deleted: Int) {
        try await device.deleteAllMediaFiles(type: type)
    }
    func mediaFileSHA256(named name: String) async throws -> [UInt8]? {
        hashCount.withLock { $0 += 1 }
        return try await device.mediaFileSHA256(named: name)
    }
}

/// What the import handlers of the vendor's import API reported.
final class ImportCallRecorder: Sendable {
    let calls = CallRecorder()
    private let state = Locked<(files: [ImportedMediaFileModel], chunks: Int, dataBytes: Int, stabilized: [ImportedMediaFileModel])>(([], 0, 0, []))

    /// The files of the completion.
    var files: [ImportedMediaFileModel] { state.withLock { $0.files } }
    /// How many chunk callbacks came.
    var chunks: Int { state.withLock { $0.chunks } }
    /// How many chunk bytes came.
    var dataBytes: Int { state.withLock { $0.dataBytes } }
    /// The models of the stabilization completions.
    var stabilized: [ImportedMediaFileModel] { state.withLock { $0.stabilized } }

    fileprivate func chunk(_ data: Data?) { state.withLock { $0.chunks += 1; $0.dataBytes += data?.count ?? 0 } }
    fileprivate func stabilized(_ file: ImportedMediaFileModel) { state.withLock { $0.stabilized.append(file) } }
    fileprivate func finish(_ files: [ImportedMediaFileModel]) { state.withLock { $0.files = files } }
}

extension MediaImportEngine {
    /// `importMediaFiles` with every callback recorded (speed and chunks counted, not named).
    func importMediaFiles(_ files: [MediaFileInfoModel], recorder: ImportCallRecorder) {
        let calls = recorder.calls
        importMediaFiles(
            files,
            dataChunkHandler: { data, _, _, _, _, _ in recorder.chunk(data) },
            singleTransferStartingHandler: { calls.record("transferStarting(\($0.fileName))") },
            singleTransferCompletionHandler: { success, file, _ in
                calls.record("transferCompleted(\(file.metadata.fileName), \(success))")
            },
            transferSpeedHandler: { _ in },
            transferBatchProgressHandler: { index, total in calls.record("batch(\(index)/\(total))") },
            videoStabilizationPhaseBeginHandler: { calls.record("stabilizationBegin") },
            videoStabilizationSingleFileProgressHandler: { file, progress in
                calls.record("stabilizationProgress(\(file.metadata.fileName), \(progress))")
            },
            videoStabilizationSingleFileCompletionHandler: { file, success in
                recorder.stabilized(file)
                calls.record("stabilizationCompleted(\(file.metadata.fileName), \(success))")
            },
            videoStabilizationBatchProgressHandler: { index, total in calls.record("stabilizationBatch(\(index)/\(total))") },
            videoStabilizationPhaseFinishHandler: { calls.record("stabilizationFinish") },
            completionHandler: { success, files, error in
                recorder.finish(files)
                calls.complete("completion(\(success), \(files.count))", error)
            })
    }
}

extension ImportEmulatorFixture {
    /// The emulated glasses as the SDK's SMP device, connected and ready.
    func connect() async throws -> SMPGlassesDevice {
        let plugin = SMPConnectSDK(discoveryDirectory: folder.appendingPathComponent("discovery"))
        let found = try await plugin.discoverPeripheral(at: DeviceAddress(parsing: address), timeout: .seconds(10))
        guard let candidate = plugin.create(found.peripheral, advertisementData: found.advertisement.dictionary, rssi: nil),
            let device = SMPGlassesDevice(device: candidate)
        else { throw AIBudsError(.pluginUnavailable, "the emulator at \(address) is not glasses") }
        try await device.connectAndWait(ConnectParams())
        remember(device)
        return device
    }
}

/// The largest `transferredSize` an import reported so far.
final class ByteProgress: Sendable {
    private let value = Locked<UInt64>(0)
    /// The bytes so far.
    var bytes: UInt64 { value.withLock { $0 } }
    /// Records a report.
    func set(_ bytes: UInt64) { value.withLock { $0 = max($0, bytes) } }
}
