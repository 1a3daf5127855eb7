import AIBudsEmulator
import AIBudsLiveCamera
import AIBudsLog
import AIBudsStabilization
import AIBudsSyntheticVideo
import Foundation

/// `aibuds emulator`: runs one emulated device until SIGINT or SIGTERM.
struct EmulatorCommand: CLICommand {
    static let path = ["emulator"]
    static let abstract = "Run an emulated device (SMP over UDP, HTTP data plane in transfer mode)."
    static let help = """
        usage: aibuds emulator [--profile glasses|earbuds|watch] [--listen HOST:PORT] [--name NAME]
                               [--media DIR | --manifest FILE] [--state DIR] [--link ble|wifi|unlimited]
                               [--fault SPEC]... [--record-every SECONDS] [--hotspot-open [--token T]]
                               [--no-list-digests] [--transport udp|bluez [--bus ADDRESS]]
                               [--rendered-videos N] [--lens-profile FILE] [--script FILE]
                               [--mic FILE] [--speaker-out FILE] [--live-video FILE --live-gyro FILE]

        Runs one device until SIGINT or SIGTERM (then exits 0). Once ready it prints exactly one
        line, 'listening on udp://HOST:PORT', and announces itself for scanners on this host.

        options:
          --profile P        glasses (default: photos, videos with six-axis data, audio, hotspot),
                             earbuds (audio) or watch (audio over SMP only, no delete-all)
          --listen HOST:PORT where SMP listens (default 127.0.0.1:1337; port 0 picks one)
          --name NAME        the device name (default: the profile's model)
          --media DIR        every file below DIR is a device file, named by its relative path
                             (jpg/png image, mp4/mov video, wav/opus/m4a/mp3 audio; VIDEO.gcsv beside
                             a video holds its six-axis data)
          --manifest FILE    device files from a JSON manifest (any names, generated content)
          --state DIR        keep deletions, uploads, recordings and settings across restarts
          --link L           unlimited (default), ble (244-byte link packets, 15 ms interval,
                             11 packets per interval, MTU 976) or wifi (data plane 25 MB/s, 5 ms)
          --fault SPEC       comma-separated faults, for example lose=0.05,seed=7 or
                             slow-hotspot=2000 or http-drop=1048576 (see docs/emulator.md)
          --record-every S   make a new audio recording every S seconds
          --hotspot-open     start in transfer mode with the hotspot open
          --token T          the data plane's bearer token (with --hotspot-open)
          --no-list-digests  the media list carries no SHA-256 (clients then ask for each
                             file's hash), as a device that does not hash its files ahead
          --transport T      udp (default) or bluez: serve SMP over GATT through a stand-in of
                             BlueZ's D-Bus API registered as org.bluez on --bus (docs/emulator.md);
                             prints 'bluez on ADDRESS device MAC' instead and writes no announcement
          --bus ADDRESS      the D-Bus bus for --transport bluez (default: DBUS_SYSTEM_BUS_ADDRESS)
          --rendered-videos N  serve N real H.264 videos (4 s, 640x360) rendered with known
                             head-worn motion, each with its matching .gcsv, through the glasses'
                             built-in lens profile (instead of --media or --manifest)
          --lens-profile FILE  the camera's Gyroflow lens-profile JSON that the device serves
                             (Capture 'lens profile'; default: the glasses' built-in profile)
          --live-video FILE  what the live camera sees: this clip, looping, at its size and rate,
                             instead of the rendered scene (needs --live-gyro)
          --live-gyro FILE   the clip's six-axis log (.gcsv), whose readings the live stream carries
                             with the frames (docs/protocol.md, Live group); the lens is
                             --lens-profile's
          --script FILE      the wearer's scenario: lines 'TIME ACTION ARGS', for example
                             '5 remove left', '8 press right doubleTap', '10 battery left -5',
                             '12 case open', '15 tws unlinked', '20 wake Hey Buds' (docs/emulator.md)
          --mic FILE         what the microphone hears in an AI audio stream (WAV or Ogg/Opus,
                             any rate; played from the stream's start, then silence)
          --speaker-out FILE write what the speaker played to FILE (16 kHz mono WAV) at the end
                             of each speaker stream
          --verbose          log to standard error
        """

    private(set) var configuration: EmulatorConfiguration
    private let liveClip: LiveCameraClip?
    let verbose: Bool
    /// The bus of `--transport bluez`, nil for UDP.
    let bluezBus: String?
    /// How many rendered H.264 videos with six-axis data to serve, nil for none.
    let renderedVideos: Int?

    init(_ arguments: inout Arguments) throws {
        let profile = try arguments.option("--profile")
        let listen = try arguments.option("--listen")
        let name = try arguments.option("--name")
        let media = try arguments.option("--media")
        let manifest = try arguments.option("--manifest")
        let state = try arguments.option("--state")
        let link = try arguments.option("--link")
        let faults = try arguments.options("--fault")
        let recordEvery = try arguments.option("--record-every")
        let hotspotOpen = arguments.flag("--hotspot-open")
        let token = try arguments.option("--token")
        let noListDigests = arguments.flag("--no-list-digests")
        let script = try arguments.option("--script")
        let mic = try arguments.option("--mic")
        let speakerOut = try arguments.option("--speaker-out")
        let lensProfile = try arguments.option("--lens-profile")
        let liveVideo = try arguments.option("--live-video")
        let liveGyro = try arguments.option("--live-gyro")
        guard (liveVideo == nil) == (liveGyro == nil) else { throw CommandFailure.usage("--live-video and --live-gyro go together") }
        if let liveVideo, let liveGyro {
            do {
                let log = try GyroLogParser.parse(contentsOf: URL(fileURLWithPath: liveGyro))
                liveClip = try LiveCameraClip(video: URL(fileURLWithPath: liveVideo), log: log)
            } catch {
                throw CommandFailure.usage("--live-video/--live-gyro: \(error)")
            }
        } else {
            liveClip = nil
        }
        verbose = arguments.flag("--verbose")
        let transport = try arguments.option("--transport") ?? "udp"
        let bus = try arguments.option("--bus")
        switch transport {
        case "udp":
            guard bus == nil else { throw CommandFailure.usage("--bus needs --transport bluez") }
            bluezBus = nil
        case "bluez":
            let address = bus ?? ProcessInfo.processInfo.environment["DBUS_SYSTEM_BUS_ADDRESS"]
            guard let address, !address.isEmpty else {
                throw CommandFailure.usage("--transport bluez needs --bus ADDRESS (or DBUS_SYSTEM_BUS_ADDRESS)")
            }
            bluezBus = address
        default:
            throw CommandFailure.usage("--transport must be udp or bluez, not '\(transport)'")
        }
        renderedVideos = try arguments.number("--rendered-videos")
        if let renderedVideos {
            guard (1...20).contains(renderedVideos) else { throw CommandFailure.usage("--rendered-videos takes 1 to 20") }
            guard media == nil && manifest == nil else { throw CommandFailure.usage("give --rendered-videos, --media or --manifest, not two") }
        }
        var built: EmulatorConfiguration
        do {
            built = try EmulatorConfiguration(
                profile: profile, listen: listen, name: name, media: media, manifest: manifest, state: state,
                link: link, faults: faults, recordEvery: recordEvery, hotspotOpen: hotspotOpen, token: token,
                listsDigests: !noListDigests, script: script)
        } catch {
            throw CommandFailure.usage(error.message)
        }
        built.microphoneFile = mic.map { URL(fileURLWithPath: $0) }
        built.speakerOut = speakerOut.map { URL(fileURLWithPath: $0) }
        if let lensProfile {
            // The device serves it as given; only a JSON object is accepted.
            guard let data = FileManager.default.contents(atPath: lensProfile),
                (try? JSONSerialization.jsonObject(with: data)) is [String: Any]
            else { throw CommandFailure.usage("--lens-profile needs a readable JSON lens profile, not '\(lensProfile)'") }
            guard data.count <= 65_536 else { throw CommandFailure.usage("--lens-profile: at most 64 KiB") }
            built.lensProfile = data
        }
        configuration = built
    }

    func run() async throws -> ExitCode {
        var configuration = configuration
        var renderedFolder: URL?
        if let renderedVideos {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("aibuds-rendered-\(ProcessInfo.processInfo.processIdentifier)")
            do {
                try RenderedVideoLibrary.render(into: folder, count: renderedVideos)
            } catch {
                throw CommandFailure.failure("cannot render the videos: \(error)")
            }
            configuration.mediaFolder = folder
            renderedFolder = folder
        }
        defer { if let renderedFolder { try? FileManager.default.removeItem(at: renderedFolder) } }
        let logger: any LogService = verbose
            ? FanOutLogService(minimumLevel: .debug, destinations: [ConsoleLogDestination()]) : NullLogService()
        if let bluezBus { return try await runBlueZ(bus: bluezBus, logger: logger) }
        let emulator: Emulator
        let address: String
        do {
            emulator = try Emulator(
                configuration: configuration,
                liveStream: LiveCamera(host: configuration.listen.host, link: configuration.link, logger: logger, clip: liveClip),
                logger: logger)
            address = try emulator.start().description
        } catch {
            throw CommandFailure.failure(error.description)
        }
        CLI.say("listening on udp://\(address)")
        await Emulator.waitForTerminationSignal()
        emulator.stop()
        return .ok
    }

    private func runBlueZ(bus: String, logger: any LogService) async throws -> ExitCode {
        var configuration = self.configuration
        configuration.announce = false
        let emulator: Emulator
        let standIn: BlueZStandIn
        do {
            emulator = try Emulator(configuration: configuration, logger: logger)
            standIn = try await emulator.startBlueZ(bus: bus)
        } catch {
            throw CommandFailure.failure("cannot serve over BlueZ on \(bus): \(error)")
        }
        CLI.say("bluez on \(bus) device \(standIn.address)")
        await Emulator.waitForTerminationSignal()
        emulator.stop()
        return .ok
    }
}
