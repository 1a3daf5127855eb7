import AIBuds
import AIBudsLiveStream
import Foundation

/// `aibuds live push`: pushes the camera's stream to an RTMP endpoint without re-encoding.
struct LivePushCommand: CLICommand {
    static let path = ["live", "push"]
    static let abstract = "Push the camera's live stream to an RTMP server (no re-encoding)."
    static let help = """
        usage: aibuds live push --device D [--size WxH] [--fps N] [--bitrate KBPS] [--transport tcp|udp]
                                [--duration S] [--stabilize [--lens FILE] [--lookahead N] [--smoothness S]]
                                rtmp://HOST[:PORT]/APP/KEY

        Pulls the camera's RTSP stream and pushes its H.264 as is (FLV over RTMP); reconnects to the
        device and to the server when either goes away, and drops whole groups of pictures only when
        the server falls more than 20 s behind. Runs until Ctrl-C or --duration; prints counts.
        With --stabilize, pushes the stabilized stream (re-encoded) instead.

        options:
        \(LiveStabilizeOptions.help)
        """

    var device: String
    var options: LiveStreamOptions
    var transport: LiveStreamTransport
    var duration: Duration?
    var target: URL
    var stabilize: LiveStabilizeOptions?

    init(_ arguments: inout Arguments) throws {
        guard let device = try arguments.option("--device") else { throw CommandFailure.usage("--device is required") }
        self.device = device
        let (kind, options) = try LiveDeviceStream.options(&arguments)
        guard kind == .rtsp else { throw CommandFailure.usage("RTMP takes H.264: push an --rtsp stream") }
        self.options = options
        transport = try LiveDeviceStream.transport(&arguments)
        duration = try LiveDeviceStream.duration(&arguments)
        stabilize = try LiveStabilizeOptions.parse(&arguments)
        let words = try arguments.positionals()
        guard words.count == 1, let url = URL(string: words[0]), url.scheme == "rtmp" else {
            throw CommandFailure.usage("give one rtmp://HOST/APP/KEY")
        }
        target = url
    }

    func run() async throws -> ExitCode {
        let stream = try await LiveDeviceStream.open(device, kind: .rtsp, options: options)
        let puller: LiveStreamPuller
        let pusher: LiveStreamPusher
        var stabilizer: LiveStreamStabilizer?
        do {
            puller = try LiveStreamPuller(
                url: try stream.url, configuration: .init(transport: transport, decodes: stabilize != nil))
            if let stabilize { stabilizer = try await stabilize.stabilizer(over: puller, stream: stream) }
            pusher = try LiveStreamPusher(from: stabilizer ?? puller, to: target)
        } catch {
            await stream.close()
            throw CommandFailure.usage("live push: \(error)")
        }
        pusher.start()
        puller.start()
        CLI.say("pushing \(try stream.url.absoluteString) to \(target.absoluteString)")
        await LiveDeviceStream.wait(for: duration, or: puller)
        puller.stop()
        stabilizer?.finish()
        pusher.stop(drain: true)
        await stream.close()
        let stats = pusher.statistics
        CLI.say("\(stats.sent) frames sent, \(stats.dropped) dropped, \(stats.connections) connections")
        if let stabilizer { CLI.say(LiveStabilizeOptions.summary(stabilizer)) }
        if let failure = pusher.failure { throw CommandFailure.failure("push: \(failure)") }
        return .ok
    }
}
