import AIBuds
import AIBudsAIDashboard
import AIBudsDigest
import AIBudsEmulator
import AIBudsFoundation
import AIBudsSyntheticVideo
import Foundation
import TopStepComKit

/// `aibuds demo`: the product on one machine, with no hardware. Emulated glasses with real content
/// (rendered videos with six-axis data, JPEG photos, voice notes) are found by scanning and
/// connected; their media is imported with progress and verified, every video stabilized with a
/// side-by-side and a contact sheet beside it; one AI turn runs from the glasses' microphone with
/// the offline provider, then a voice command to the offline voice assistant; the voice notes are
/// listed through TopStep's `TSMediaFile` API.
struct DemoCommand: CLICommand {
    static let path = ["demo"]
    static let abstract = "Run the whole product against emulated glasses on this machine."
    static let help = """
        usage: aibuds demo [--to DIR] [--videos N] [--link unlimited|wifi] [--dashboard]

        Starts emulated AI glasses in this process holding rendered videos with six-axis data,
        JPEG photos and voice notes; scans for them, connects, imports every file with progress,
        verifies each against the device's SHA-256, stabilizes every video (the copy beside its
        original, with a side-by-side clip and a contact sheet of motion trails to look at), asks
        a question into the glasses' microphone and hears the offline provider's answer on their
        speaker (interpretation into Spanish), says "hey glasses, take a photo" to the offline
        voice assistant (which takes one on the glasses), lists the voice notes through TopStep's
        API, and prints where to look. Without --to everything goes to a temporary folder removed
        at the end.

        options:
          --to DIR        keep the imported files, the comparisons and the AI turn's audio in DIR
          --videos N      how many videos the glasses recorded (default 3, 1 to 8)
          --link L        unlimited (default: loopback speed) or wifi (25 MB/s, 5 ms)
          --dashboard     afterwards, serve the AI dashboard with this session's record until Ctrl-C
        """

    var destination: String?
    var videos: Int
    var link: String
    var dashboard: Bool

    init(_ arguments: inout Arguments) throws {
        destination = try arguments.option("--to")
        videos = try arguments.number("--videos") ?? 3
        link = try arguments.option("--link") ?? "unlimited"
        dashboard = arguments.flag("--dashboard")
        try arguments.finish()
    }

    func validate() throws {
        if !(1...8).contains(videos) { throw CommandFailure.usage("--videos takes a number from 1 to 8") }
        if !["unlimited", "wifi"].contains(link) { throw CommandFailure.usage("--link takes unlimited or wifi, not '\(link)'") }
    }

    func run() async throws -> ExitCode {
        let clock = ContinuousClock()
        let started = clock.now
        let workspace = FileManager.default.temporaryDirectory.appendingPathComponent("aibuds-demo-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: workspace, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: workspace) }
        let output = destination.map { URL(fileURLWithPath: $0).standardizedFileURL } ?? workspace.appendingPathComponent("out")
        let folder = output.appendingPathComponent("imported")
        let records = output.appendingPathComponent("dashboard")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)

        // 1. The glasses' content, made here: the offline provider speaks the voice notes.
        try AICommandSupport.select("offline")
        let content: DemoContent
        do {
            content = try await DemoContent.make(in: workspace.appendingPathComponent("glasses"), videos: videos)
        } catch {
            throw CommandFailure.failure("cannot make the glasses' content: \(error)")
        }
        CLI.say("Made the glasses' content in \(Self.seconds(clock.now - started)): \(videos) rendered videos with six-axis data, "
            + "4 photos, \(DemoContent.notes.count) voice notes")

        // 2. Emulated glasses, announced for scanners on this host; the microphone plays the
        // question, then the voice command.
        let speakerOut = output.appendingPathComponent("glasses-speaker.wav")
        let emulator = try Self.startEmulator(
            "glasses", name: "AIBuds Demo Glasses", media: content.media, link: link
        ) { configuration in
            configuration.microphoneFile = content.microphone
            configuration.speakerOut = speakerOut
        }
        defer { emulator.stop() }
        let watch = try Self.startEmulator("watch", name: "AIBuds Demo Watch", media: content.watchMedia, link: link) { _ in }
        defer { watch.stop() }

        // 3. Scan and connect.
        DeviceCommandSupport.initializeSDK()
        let mac = emulator.device.identity.mac
        let scanStarted = clock.now
        let found: [any FoundDeviceConvertible]
        do {
            found = try await AIBudsSDK.scan(timeout: 1.0)
        } catch {
            throw DeviceCommandSupport.failure(error, "scanning failed")
        }
        guard let glasses = found.first(where: { $0.macAddress == mac }),
            let watchFound = found.first(where: { $0.macAddress == watch.device.identity.mac })
        else {
            throw CommandFailure.unavailable("the scan did not find the emulated glasses and watch")
        }
        CLI.say("Scan found \(found.count) device\(found.count == 1 ? "" : "s") in \(Self.seconds(clock.now - scanStarted)); "
            + "connecting to \(glasses.name ?? "glasses") (\(glasses.peripheral.address))")
        var summary = DemoSummary(output: output, kept: destination != nil)
        let status = try await MediaDeviceConnection.using(glasses, naming: "the emulated glasses") { connection in
            try await DemoSteps(emulator: emulator, summary: summary).run(
                connection.device, folder: folder, records: records, clock: clock)
        }
        summary = status.summary
        let watchOK = await DemoSteps.watchRecordings(watchFound, to: output.appendingPathComponent("watch"), into: &summary)
        summary.speaker = emulator.device.audio.speakerAudio.duration > 0 ? speakerOut : nil
        summary.total = clock.now - started
        summary.print()
        if dashboard { try await Self.serveDashboard(records) }
        return status.ok && watchOK ? .ok : .failure
    }

    /// Starts an emulated `profile` named `name` serving the files of `media`; `adjust` sets the rest.
    private static func startEmulator(
        _ profile: String, name: String, media: URL, link: String, adjust: (inout EmulatorConfiguration) -> Void
    ) throws -> Emulator {
        let emulator: Emulator
        let address: String
        do {
            var configuration = try EmulatorConfiguration(
                profile: profile, listen: "127.0.0.1:0", name: name, media: media.path, manifest: nil,
                state: nil, link: link, faults: [], recordEvery: nil, hotspotOpen: false, token: nil)
            adjust(&configuration)
            emulator = try Emulator(configuration: configuration)
            address = try emulator.start().description
        } catch {
            throw CommandFailure.failure("cannot start the emulated \(profile): \(error.description)")
        }
        CLI.say("Started emulated \(profile) '\(emulator.device.identity.name)' on udp://\(address)")
        return emulator
    }

    /// Serves the dashboard over `records` until Ctrl-C.
    private static func serveDashboard(_ records: URL) async throws {
        let dashboard: AIBudsAIDashboard
        do {
            dashboard = try AIBudsAIDashboard.start(port: 0, host: "127.0.0.1", directory: records)
        } catch {
            throw CommandFailure.failure("cannot start the dashboard: \(error)")
        }
        CLI.say("")
        CLI.say("AI dashboard: \(dashboard.url)  (Ctrl-C to stop)")
        await Emulator.waitForTerminationSignal()
        dashboard.stop()
    }

    static func seconds(_ duration: Duration) -> String { String(format: "%.1f s", duration.seconds) }
}
