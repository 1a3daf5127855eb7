import AIBuds
import AIBudsImport
import AIBudsFoundation
import AIBudsWire
import Foundation

/// `aibuds media import`: fetches the device's media list over its hotspot and imports files,
/// resumable and verified, with progress; Ctrl-C cancels cleanly and the next run resumes.
struct MediaImportCommand: CLICommand {
    static let path = ["media", "import"]
    static let abstract = "Import media files from a device (fast, resumable, verified)."
    static let help = """
        usage: aibuds media import --device D --to DIR [--all | NAME...] [--new] [--jobs N]
                                   [--delete-after] [--no-stabilize] [--json]
               aibuds media import --device A --device B ... --to DIR --all [--new] [--jobs N] ...

        Prepares the device's hotspot, lists its media and downloads the chosen files into DIR.
        Every file is checked against the device's size and SHA-256 before it appears in DIR;
        existing files are never overwritten. Videos with six-axis data are then stabilized: the
        stabilized copy is written beside the original as NAME.stabilized.EXT. Ctrl-C cancels
        cleanly (a second one stops at once); running the same command again resumes where it
        stopped, also after a crash or kill -9. A second import into the same DIR waits until the
        first has ended. A failed write of DIR's import ledger is an error (exit 1), although the
        files are imported. With several --device options every device imports at once, each into
        DIR/<device id>/ with its own ledger, and one progress view shows them all (--all only).
        --to s3://BUCKET/PREFIX stores the files in an S3-compatible object store instead, under
        PREFIX/<device id>/ (endpoint, region and credentials from AWS_ENDPOINT_URL, AWS_REGION,
        AWS_ACCESS_KEY_ID... or ~/.aws/config and credentials; path-style for non-AWS endpoints):
        each file verified against the device's SHA-256 (kept as the object's metadata), stored
        once even by two stations, the ledger beside the objects (--all only).

        options:
          --device D       the device: udp://HOST:PORT, or a name or MAC address from 'aibuds scan'
                           (repeat it to import from several devices at once)
          --to DIR         the folder to import into (created when missing), or s3://BUCKET/PREFIX
          --all            import every file on the device
          NAME...          import these device files
          --new            only files not imported before (by DIR's import ledger)
          --jobs N         files downloaded at once per device (1 to 64; default 6 into a folder,
                           2 into s3://, where each file streams into the store part by part)
          --delete-after   delete each imported and verified file from the device
          --no-stabilize   keep videos as recorded (no stabilized copies)
          --json           print one JSON document (files, bytes fetched, errors) instead of progress
        """

    var device: String
    /// Every `--device` given; more than one imports from all at once.
    var devices: [String]
    var destination: String
    var all: Bool
    var names: [String]
    var onlyNew: Bool
    /// `--jobs`; nil: the destination's preferred number.
    var jobs: Int?
    var deleteAfter: Bool
    var noStabilize: Bool
    var json: Bool

    init(_ arguments: inout Arguments) throws {
        devices = try arguments.options("--device")
        device = devices.first ?? ""
        destination = try arguments.option("--to") ?? ""
        all = arguments.flag("--all")
        onlyNew = arguments.flag("--new")
        jobs = try arguments.number("--jobs")
        deleteAfter = arguments.flag("--delete-after")
        noStabilize = arguments.flag("--no-stabilize")
        json = arguments.flag("--json")
        names = try arguments.positionals()
    }

    func validate() throws {
        if device.isEmpty { throw CommandFailure.usage("media import needs --device D") }
        if destination.isEmpty { throw CommandFailure.usage("media import needs --to DIR") }
        if all && !names.isEmpty { throw CommandFailure.usage("give either --all or file names, not both") }
        if !all && names.isEmpty { throw CommandFailure.usage("name the files to import, or give --all") }
        if let jobs, !(1...64).contains(jobs) { throw CommandFailure.usage("--jobs takes a number from 1 to 64") }
        if (devices.count > 1 || destination.hasPrefix("s3://")) && !all { throw CommandFailure.usage("an import from several devices takes --all, not file names") }
    }

    func run() async throws -> ExitCode {
        // Several devices, or an object store: the station's scheduler.
        if devices.count > 1 || destination.hasPrefix("s3://") { return try await runFleet() }
        let clock = ContinuousClock()
        let started = clock.now
        if noStabilize { AIBudsSDK.isVideoStabilizationDisabled = true }
        // One import at a time into a folder: a second one waits here, before it touches the
        // device (its transfer session would end the first one's), then finds what the first imported.
        let folder = URL(fileURLWithPath: destination).standardizedFileURL
        let lock: ImportDestinationLock
        do {
            lock = try await ImportDestinationLock.acquire(folder) {
                CLI.printError("another import into \(folder.path) is running; waiting for it to end")
            }
        } catch {
            throw CommandFailure.failure("cannot lock \(folder.path) for the import: \(error.localizedDescription)")
        }
        defer { withExtendedLifetime(lock) {} }
        return try await MediaDeviceConnection.using(device) { connection in
            try await run(connection, lock: lock, started: started, clock: clock)
        }
    }

    private func run(
        _ connection: MediaDeviceConnection, lock: ImportDestinationLock, started: ContinuousClock.Instant, clock: ContinuousClock
    ) async throws -> ExitCode {
        let engine = connection.device.mediaImport
        let view = MediaImportProgressView(style: .detect(quiet: json))
        var report = MediaImportReport(device: connection.device.mediaImportDeviceID, destination: "")

        // Ctrl-C from here on cancels the fetch or the import cleanly; a second one exits at once.
        let interrupt = MediaInterrupt { Task { _ = try? await engine.cancel() } }
        defer { interrupt.remove() }

        // Fetch: hotspot, transfer mode, list.
        let models: [MediaFileInfoModel]
        do {
            models = try await fetch(engine, view: view)
        } catch {
            let failure = AIBudsError.from(error)
            view.showFetchFailure(failure)
            report.error = .init(failure)
            if json { try report.print() } else { CLI.printError(failure.message) }
            return failure.code == .operationCanceled ? .interrupted : .failure
        }

        // Select.
        var selection = models
        if !all {
            // Exact names: `café.jpg` typed in NFC selects the NFC file, not its NFD twin.
            let byName = Dictionary(models.map { (MediaFileName($0.fileName), $0) }, uniquingKeysWith: { first, _ in first })
            let missing = names.filter { byName[MediaFileName($0)] == nil }
            guard missing.isEmpty else {
                try? await engine.endTransferSession()
                throw CommandFailure.failure("the device has no file named \(missing.map { "'\($0)'" }.joined(separator: ", "))")
            }
            selection = names.compactMap { byName[MediaFileName($0)] }
        }
        let folder = URL(fileURLWithPath: destination).standardizedFileURL
        report.destination = folder.path
        let ledger: ImportLedger
        do {
            ledger = try ImportLedger(deviceID: connection.device.mediaImportDeviceID, directory: folder.appendingPathComponent(".aibuds"))
        } catch {
            try? await engine.endTransferSession()
            throw CommandFailure.failure("cannot open the import ledger in \(folder.path): \(error.localizedDescription)")
        }
        var toImport = selection
        if onlyNew {
            toImport = selection.filter { !ledger.contains(name: $0.fileName, size: $0.fileSize ?? 0) }
            let importing = Set(toImport.map { MediaFileName($0.fileName) })
            for skipped in selection where !importing.contains(MediaFileName(skipped.fileName)) {
                report.files.append(.init(skipped: skipped, ledger: ledger.entry(named: skipped.fileName)))
            }
            if toImport.count < selection.count {
                view.line("Skipping \(selection.count - toImport.count) files imported before (--new).")
            }
        }

        // Import.
        var options = MediaImportOptions(
            destination: folder, maximumConcurrentTransfers: jobs ?? MediaImportDestination.folder(folder).preferredTransfersPerDevice, ledger: ledger, deletesVerifiedFilesFromDevice: deleteAfter,
            reportsProgress: !json)
        // The import uses the lock taken above (an import into a folder never shares one silently).
        options.destinationLock = lock
        view.begin(toImport, destination: folder)
        var outcome: MediaImportResult?
        for await event in engine.importEvents(toImport, options: options) {
            view.show(event)
            if case .completed(let result) = event { outcome = result }
        }
        try? await engine.endTransferSession()
        let result = outcome ?? .init(importedFiles: [], failures: [], error: AIBudsError(.fileImportFailed, "the import ended without a result"))

        report.add(result, requested: toImport, ledger: ledger)
        report.seconds = (clock.now - started).seconds
        report.success = result.success
        report.error = result.error.map { .init($0) }
        if json {
            try report.print()
        } else {
            summarize(result, report: report, view: view)
        }
        if let ledgerError = result.ledgerError {
            // The files are there, but the ledger does not know them: never silent (it misleads --new).
            CLI.printError("\(ledgerError.message); a later --new import will not know these files from the ledger")
        }
        if result.error?.code == .importFilesCanceled { return .interrupted }
        return result.success && result.ledgerError == nil ? .ok : .failure
    }

    private func fetch(_ engine: MediaImportEngine, view: MediaImportProgressView) async throws -> [MediaFileInfoModel] {
        for try await event in engine.fetchEvents() {
            view.show(event)
            if case .listed(let models) = event { return models }
        }
        throw AIBudsError(.fileImportFailed, "the fetch ended without a media list")
    }

    private func summarize(_ result: MediaImportResult, report: MediaImportReport, view: MediaImportProgressView) {
        let fetched = report.files.saturatingSum(\.bytesFetched)
        let rate = report.seconds > 0 ? UInt64(saturating: Double(fetched) / report.seconds) : 0
        view.line(
            "Imported \(result.importedFiles.count) files, fetched \(TerminalText.bytes(fetched)) in "
                + String(format: "%.1f s", report.seconds) + " (\(TerminalText.bytes(rate))/s).")
        if let error = result.error {
            if error.code == .importFilesCanceled {
                view.line("Cancelled: run the same command again to resume.")
            } else {
                view.line("\(result.failures.count) files failed: \(TerminalText.safe(error.message))")
            }
        }
    }
}

extension Duration {
    /// This duration in seconds.
    var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}
