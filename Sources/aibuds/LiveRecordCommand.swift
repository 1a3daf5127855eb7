import AIBuds
import AIBudsLiveStream
import Foundation

/// `aibuds live record`: records the camera's stream to an MP4 file without re-encoding.
struct LiveRecordCommand: CLICommand {
    static let path = ["live", "record"]
    static let abstract = "Record the camera's live stream to an MP4 file (no re-encoding unless stabilized)."
    static let help = """
        usage: aibuds live record --device D --to FILE [--size WxH] [--fps N] [--bitrate KBPS]
                                  [--transport tcp|udp] [--duration S]
                                  [--stabilize [--lens FILE] [--lookahead N] [--smoothness S]]

        Writes the stream's H.264 as fragmented MP4 (a crash keeps what was written); goes on after
        a reconnection. Runs until Ctrl-C or --duration. With --stabilize, writes the stabilized
        stream instead and prints the frames dropped and the latency stabilization added.

        options:
        \(LiveStabilizeOptions.help)
        """

    var device: String
    var file: String
    var options: LiveStreamOptions
    var transport: LiveStreamTransport
    var duration: Duration?
    var stabilize: LiveStabilizeOptions?

    init(_ arguments: inout Arguments) throws {
        guard let device = try arguments.option("--device") else { throw CommandFailure.usage("--device is required") }
        guard let file = try arguments.option("--to") else { throw CommandFailure.usage("--to FILE is required") }
        self.device = device
        self.file = file
        let (kind, options) = try LiveDeviceStream.options(&arguments)
        guard kind == .rtsp else { throw CommandFailure.usage("MP4 takes H.264: record an --rtsp stream") }
        self.options = options
        transport = try LiveDeviceStream.transport(&arguments)
        duration = try LiveDeviceStream.duration(&arguments)
        stabilize = try LiveStabilizeOptions.parse(&arguments)
    }

    func run() async throws -> ExitCode {
        let stream = try await LiveDeviceStream.open(device, kind: .rtsp, options: options)
        let puller: LiveStreamPuller
        do {
            puller = try LiveStreamPuller(
                url: try stream.url, configuration: .init(transport: transport, decodes: stabilize != nil))
        } catch {
            await stream.close()
            throw CommandFailure.failure("live record: \(error)")
        }
        var stabilizer: LiveStreamStabilizer?
        if let stabilize {
            do { stabilizer = try await stabilize.stabilizer(over: puller, stream: stream) } catch {
                await stream.close()
                throw CommandFailure.failure("live record: \(error)")
            }
        }
        let recorder = LiveStreamRecorder(from: stabilizer ?? puller, to: URL(fileURLWithPath: file))
        puller.start()
        CLI.say("recording \(try stream.url.absoluteString)\(stabilizer == nil ? "" : ", stabilized,") to \(file)")
        await LiveDeviceStream.wait(for: duration, or: puller)
        puller.stop()
        stabilizer?.finish()
        recorder.finish()
        await stream.close()
        CLI.say("\(recorder.framesWritten) frames written to \(file)")
        if let stabilizer { CLI.say(LiveStabilizeOptions.summary(stabilizer)) }
        if let failure = recorder.failure { throw CommandFailure.failure("record: \(failure)") }
        return .ok
    }
}
