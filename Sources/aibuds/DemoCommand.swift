import AIBuds
import AIBudsDigest
import AIBudsEmulator
import AIBudsFoundation
import AIBudsWire
import Foundation

/// `aibuds demo`: the whole path on one machine, with no hardware: starts emulated glasses
/// in-process, finds them by scanning, connects, fetches the media list over the "hotspot",
/// imports everything with progress, checks every file against the device and prints a summary.
struct DemoCommand: CLICommand {
    static let path = ["demo"]
    static let abstract = "Run the whole import path against emulated glasses on this machine."
    static let help = """
        usage: aibuds demo [--to DIR] [--media-mb N] [--link unlimited|wifi]

        Starts an emulated pair of AI glasses in this process (photos, videos with six-axis data
        and audio recordings, generated), scans for it, connects, prepares its hotspot, imports
        every file with progress, verifies each one against the device's SHA-256 and prints a
        summary. Without --to the files go to a temporary folder that is removed afterwards.

        options:
          --to DIR        keep the imported files in DIR
          --media-mb N    about how many megabytes of media the glasses hold (default 300, 1 to 4000)
          --link L        unlimited (default: loopback speed) or wifi (25 MB/s, 5 ms)
        """

    var destination: String?
    var mediaMB: Int
    var link: String

    init(_ arguments: inout Arguments) throws {
        destination = try arguments.option("--to")
        mediaMB = try arguments.number("--media-mb") ?? 300
        link = try arguments.option("--link") ?? "unlimited"
    }

    func validate() throws {
        if !(1...4000).contains(mediaMB) { throw CommandFailure.usage("--media-mb takes a number from 1 to 4000") }
        if !["unlimited", "wifi"].contains(link) { throw CommandFailure.usage("--link takes unlimited or wifi, not '\(link)'") }
    }

    func run() async throws -> ExitCode {
        let clock = ContinuousClock()
        let workspace = FileManager.default.temporaryDirectory.appendingPathComponent("aibuds-demo-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: workspace, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: workspace) }
        let folder = destination.map { URL(fileURLWithPath: $0).standardizedFileURL } ?? workspace.appendingPathComponent("imported")

        // 1. Emulated glasses, announced for scanners on this host.
        let emulator = try Self.startEmulator(media: Self.media(totalMB: mediaMB), link: link)
        defer { emulator.stop() }

        // 2. Scan and connect.
        DeviceCommandSupport.initializeSDK()
        let mac = emulator.device.identity.mac
        let scanStarted = clock.now
        let found: [any FoundDeviceConvertible]
        do {
            found = try await AIBudsSDK.scan(timeout: 1.0)
        } catch {
            throw DeviceCommandSupport.failure(error, "scanning failed")
        }
        guard let glasses = found.first(where: { $0.macAddress == mac }) else {
            throw CommandFailure.unavailable("the scan did not find the emulated glasses")
        }
        CLI.say("Scan found \(found.count) device\(found.count == 1 ? "" : "s") in \(String(format: "%.1f", (clock.now - scanStarted).seconds)) s; "
            + "connecting to \(glasses.name ?? "glasses") (\(glasses.peripheral.address))")
        return try await MediaDeviceConnection.using(glasses, naming: "the emulated glasses") { connection in
            try await demo(connection.device, emulator: emulator, folder: folder, clock: clock)
        }
    }

    /// Starts the emulated glasses with `media`.
    private static func startEmulator(media: [MediaSeed], link: String) throws -> Emulator {
        let emulator: Emulator
        let address: String
        do {
            var configuration = try EmulatorConfiguration(
                profile: "glasses", listen: "127.0.0.1:0", name: "AIBuds Demo Glasses", media: nil, manifest: nil,
                state: nil, link: link, faults: [], recordEvery: nil, hotspotOpen: false, token: nil)
            configuration.mediaSeeds = media
            emulator = try Emulator(configuration: configuration)
            address = try emulator.start().description
        } catch {
            throw CommandFailure.failure("cannot start the emulator: \(error.description)")
        }
        CLI.say("Started emulated glasses '\(emulator.device.identity.name)' on udp://\(address)")
        return emulator
    }

    /// Fetch, import, verify, summarize.
    private func demo(
        _ device: any MediaImportControlChannel & DeviceMediaFileImportAPI, emulator: Emulator, folder: URL,
        clock: ContinuousClock
    ) async throws -> ExitCode {
        let engine = device.mediaImport
        let view = MediaImportProgressView(style: .detect(quiet: false))
        var models: [MediaFileInfoModel] = []
        do {
            for try await event in engine.fetchEvents() {
                view.show(event)
                if case .listed(let listed) = event { models = listed }
            }
        } catch {
            let failure = AIBudsError.from(error)
            view.showFetchFailure(failure)
            return .failure
        }

        let started = clock.now
        view.begin(models, destination: folder)
        let interrupt = MediaInterrupt { Task { try? await engine.cancel() } }
        var result: MediaImportResult?
        for await event in engine.importEvents(models, options: MediaImportOptions(destination: folder)) {
            view.show(event)
            if case .completed(let done) = event { result = done }
        }
        interrupt.remove()
        let seconds = (clock.now - started).seconds
        try? await engine.endTransferSession()
        guard let result else { throw CommandFailure.failure("the import ended without a result") }

        // Check every file against the device's own digest, independently of the SDK's check.
        var verified = 0
        for file in result.importedFiles {
            let store = emulator.device.store
            guard let object = store.object(named: MediaFileName(file.metadata.fileName)),
                case .sha256(let expected) = try store.digest(.sha256, of: object).digest,
                try SHA256.hash(fileAt: file.localFileURL) == expected
            else {
                view.line("✗ \(TerminalText.safe(file.metadata.fileName)) does not match the device")
                continue
            }
            verified += 1
        }

        let bytes = result.bytesFetched.values.saturatingSum { $0 }
        let rate = seconds > 0 ? UInt64(saturating: Double(bytes) / seconds) : 0
        let statuses = Dictionary(grouping: result.importedFiles, by: \.stabilizationStatus).mapValues(\.count)
        view.line("")
        view.line("Summary")
        view.line("  imported   \(result.importedFiles.count) of \(models.count) files, \(MediaImportProgressView.bytes(bytes))"
            + " in \(String(format: "%.2f", seconds)) s (\(MediaImportProgressView.bytes(rate))/s)")
        view.line("  verified   \(verified) of \(result.importedFiles.count) files match the device's SHA-256")
        view.line(
            "  videos     \(statuses[.stabilized] ?? 0) stabilized, \(statuses[.failed] ?? 0) kept as recorded (the demo's videos are"
                + " generated bytes, not real video; 'aibuds emulator --rendered-videos N' serves real ones)")
        view.line("  folder     \(folder.path)\(destination == nil ? " (temporary, removed now; keep files with --to DIR)" : "")")
        if let error = result.error { view.line("  error      \(error.message)") }
        return result.success && verified == result.importedFiles.count ? .ok : .failure
    }

    /// Generated media of about `totalMB` megabytes: photos, videos with six-axis data, audio.
    static func media(totalMB: Int) -> [MediaSeed] {
        let total = Double(totalMB) * 1_000_000
        var files: [MediaSeed] = []
        func add(_ name: String, _ type: MediaFileType, _ share: Double, sixaxis: Bool = false) {
            let size = UInt64(max(1_000, Int(total * share)))
            files.append(.generated(name, type: type, size: size, seed: UInt64(files.count + 1), sixaxis: sixaxis))
        }
        for index in 1...8 { add(String(format: "IMG_20260301_1015%02d.jpg", index), .image, 0.01) }
        add("VID_20260301_102000.mp4", .video, 0.32, sixaxis: true)
        add("VID_20260301_103010.mp4", .video, 0.24, sixaxis: true)
        add("VID_20260301_110500.mp4", .video, 0.18, sixaxis: true)
        add("VID_20260301_112233.mp4", .video, 0.12)
        for index in 1...3 { add(String(format: "AUD_20260301_1040%02d.m4a", index), .audio, 0.02) }
        return files
    }
}
