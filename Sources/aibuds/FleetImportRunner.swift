import AIBuds
import AIBudsImport
import AIBudsFoundation
import AIBudsS3
import Foundation

/// The import from several devices at once, shared by `aibuds media import --device A --device B …`
/// and `aibuds station`: connected devices go to a ``MediaImportScheduler``, the events to one
/// ``FleetProgressView``, the results to one report.
final class FleetImportRunner: @unchecked Sendable {
    let scheduler: MediaImportScheduler
    let view: FleetProgressView
    let json: Bool
    private var report = FleetImportReport()
    private let clock = ContinuousClock()
    private let started: ContinuousClock.Instant
    private var consumer: Task<Void, Never>?

    /// Creates a runner importing into `destination`, `jobs` files at once per device (nil: the
    /// destination's preferred number).
    init(destination: MediaImportDestination, jobs: Int?, devices: Int, onlyNew: Bool, deleteAfter: Bool, json: Bool) {
        let jobs = jobs ?? destination.preferredTransfersPerDevice
        scheduler = MediaImportScheduler(configuration: .init(
            destination: destination, stationTransfers: jobs * max(1, devices), transfersPerDevice: jobs, onlyNew: onlyNew,
            deletesVerifiedFilesFromDevice: deleteAfter, reportsProgress: !json))
        view = FleetProgressView(style: .detect(quiet: json))
        self.json = json
        started = clock.now
    }

    /// Starts showing the events; every device result lands in the report.
    func start() {
        let scheduler = scheduler
        consumer = Task { [self] in
            for await event in scheduler.events {
                view.show(event)
                if case .finished(let result) = event { report.add(result, name: result.deviceID) }
            }
        }
    }

    /// The destination that `--to` names: a folder, or `s3://BUCKET/PREFIX` (the store's
    /// settings from the AWS environment variables and files; its access checked before any device
    /// is touched, so wrong credentials write nothing). Files bound for S3 are staged in
    /// `$XDG_CACHE_HOME/aibuds/s3-staging/BUCKET/` (resumable downloads, removed once stored).
    static func destination(_ text: String) throws -> (destination: MediaImportDestination, name: String) {
        guard text.hasPrefix("s3://") else {
            let folder = URL(fileURLWithPath: text).standardizedFileURL
            return (.folder(folder), folder.path)
        }
        guard let location = S3Location(text) else {
            throw CommandFailure.usage("'\(text)' is not s3://BUCKET[/PREFIX] with a valid bucket name")
        }
        let store: S3MediaStore
        do {
            store = S3MediaStore(client: S3Client(settings: try S3Settings.resolve()), location: location)
            try store.checkAccess()
        } catch {
            throw CommandFailure.failure("cannot use \(text): \(error)")
        }
        let environment = ProcessInfo.processInfo.environment
        let cache = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".cache")
        let staging = cache.appendingPathComponent("aibuds/s3-staging/\(location.bucket)", isDirectory: true)
        return (.objectStore(store, staging: staging), text)
    }

    /// Records a device that could not even be connected.
    func failedToConnect(_ spec: String, _ message: String) {
        view.line("\(TerminalText.safe(spec)): \(TerminalText.safe(message))")
        var failed = MediaImportReport(device: spec, destination: "")
        failed.error = .init(AIBudsError(.deviceNotConnected, message))
        report.success = false
        report.devices.append(failed)
    }

    /// Waits for every device, prints the summary or the JSON report; returns the exit status
    /// (130 when `interrupted` says, once every device is done, that Ctrl-C stopped it).
    func finish(interrupted: () -> Bool) async throws -> ExitCode {
        scheduler.finish()
        await consumer?.value
        view.end()
        report.seconds = (clock.now - started).seconds
        if json {
            try report.print()
        } else {
            let rate = report.seconds > 0 ? UInt64(saturating: Double(report.bytesFetched) / report.seconds) : 0
            let files = report.devices.reduce(0) { $0 + $1.files.filter { $0.status == "imported" }.count }
            view.line(
                "Imported \(files) files from \(report.devices.count) devices, fetched \(TerminalText.bytes(report.bytesFetched)) in "
                    + String(format: "%.1f s", report.seconds) + " (\(TerminalText.bytes(rate))/s).")
        }
        if interrupted() { return .interrupted }
        return report.success ? .ok : .failure
    }
}

extension MediaImportCommand {
    /// `--device A --device B …`: every device at once, each into DIR/<device id>/.
    func runFleet() async throws -> ExitCode {
        if noStabilize { AIBudsSDK.isVideoStabilizationDisabled = true }
        DeviceCommandSupport.initializeSDK()
        let target = try FleetImportRunner.destination(destination)
        let runner = FleetImportRunner(
            destination: target.destination, jobs: jobs, devices: devices.count, onlyNew: onlyNew, deleteAfter: deleteAfter, json: json)
        let interrupt = MediaInterrupt { runner.scheduler.cancel() }
        defer { interrupt.remove() }
        runner.start()
        runner.view.line("Importing from \(devices.count) devices into \(target.name)")
        let connections = await withTaskGroup(of: (Int, Result<MediaDeviceConnection, any Error>).self) { group in
            for (index, spec) in devices.enumerated() {
                group.addTask {
                    do { return (index, .success(try await MediaDeviceConnection.connect(spec))) } catch { return (index, .failure(error)) }
                }
            }
            var connected: [MediaDeviceConnection] = []
            for await (index, outcome) in group {
                switch outcome {
                case .success(let connection):
                    connected.append(connection)
                    // Each device starts as soon as it is connected.
                    runner.scheduler.submit(connection.device)
                case .failure(let error):
                    runner.failedToConnect(devices[index], (error as? CommandFailure)?.message ?? "\(error)")
                }
            }
            return connected
        }
        let status = try await runner.finish { interrupt.wasInterrupted }
        for connection in connections { await connection.close() }
        return status
    }
}
