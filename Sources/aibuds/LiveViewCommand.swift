import AIBuds
import AIBudsLiveStream
import AIBudsProcess
import Foundation

/// `aibuds live view`: pulls the stream and serves the local viewer page.
struct LiveViewCommand: CLICommand {
    static let path = ["live", "view"]
    static let abstract = "Watch the camera live in a browser (a local low-latency viewer page)."
    static let help = """
        usage: aibuds live view --device D [--rtsp | --jpeg] [--size WxH] [--fps N] [--transport tcp|udp]
                                [--port N] [--no-open] [--frames-to DIR] [--duration S]
                                [--stabilize [--lens FILE] [--lookahead N] [--smoothness S]]

        Uses the stream the camera runs (or starts one), pulls it, and serves a viewer page on
        http://127.0.0.1:PORT/ (multipart JPEG, no plugin); prints that URL and opens it with
        xdg-open when a desktop is there. Runs until Ctrl-C or --duration; stops a stream it started.

        options:
          --transport tcp|udp  how RTP travels (RTSP only; tcp by default)
          --port N             the viewer's port (default: a free one)
          --no-open            only print the URL
          --frames-to DIR      also write every frame as DIR/frame-NNNNNN.jpg
        \(LiveStabilizeOptions.help)
        """

    var device: String
    var kind: LiveStreamKind
    var options: LiveStreamOptions
    var transport: LiveStreamTransport
    var port: UInt16
    var open: Bool
    var framesFolder: String?
    var duration: Duration?
    var stabilize: LiveStabilizeOptions?

    init(_ arguments: inout Arguments) throws {
        guard let device = try arguments.option("--device") else { throw CommandFailure.usage("--device is required") }
        self.device = device
        (kind, options) = try LiveDeviceStream.options(&arguments)
        transport = try LiveDeviceStream.transport(&arguments)
        port = try arguments.number("--port") ?? 0
        open = !arguments.flag("--no-open")
        framesFolder = try arguments.option("--frames-to")
        duration = try LiveDeviceStream.duration(&arguments)
        stabilize = try LiveStabilizeOptions.parse(&arguments)
    }

    func run() async throws -> ExitCode {
        let stream = try await LiveDeviceStream.open(device, kind: kind, options: options)
        let puller: LiveStreamPuller
        let viewer: LiveViewer
        var files: LiveFrameFiles?
        var stabilizer: LiveStreamStabilizer?
        do {
            puller = try LiveStreamPuller(url: try stream.url, configuration: .init(transport: transport))
            if let stabilize { stabilizer = try await stabilize.stabilizer(over: puller, stream: stream) }
            viewer = try LiveViewer(from: stabilizer ?? puller, port: port)
            if let framesFolder { files = try LiveFrameFiles(from: stabilizer ?? puller, to: URL(fileURLWithPath: framesFolder)) }
        } catch {
            await stream.close()
            throw CommandFailure.failure("live view: \(error)")
        }
        puller.onEvent { event in
            if case .disconnected(let error) = event { CLI.printError("stream: \(error.message); reconnecting") }
        }
        puller.start()
        CLI.say("viewer: \(viewer.url.absoluteString)")
        CLI.say("stream: \(try stream.url.absoluteString)")
        if open { Self.openInBrowser(viewer.url) }
        await LiveDeviceStream.wait(for: duration, or: puller)
        puller.stop()
        stabilizer?.finish()
        viewer.stop()
        withExtendedLifetime(files) {}
        await stream.close()
        let stats = puller.statistics
        CLI.say("\(stats.frames) frames decoded, \(viewer.statistics.framesServed) shown, \(stats.failures) reconnections")
        if let stabilizer { CLI.say(LiveStabilizeOptions.summary(stabilizer)) }
        return .ok
    }

    /// Opens `url` with xdg-open when there is a desktop to open it on.
    private static func openInBrowser(_ url: URL) {
        let environment = ProcessInfo.processInfo.environment
        guard environment["DISPLAY"] != nil || environment["WAYLAND_DISPLAY"] != nil,
            FileManager.default.isExecutableFile(atPath: "/usr/bin/xdg-open")
        else { return }
        _ = try? ChildProcess("/usr/bin/xdg-open", [url.absoluteString], output: .discard, errors: .discard)
    }
}
