import AIBuds
import Foundation

/// `aibuds live start`: makes the device's camera stream and prints the URL.
struct LiveStartCommand: CLICommand {
    static let path = ["live", "start"]
    static let abstract = "Start the camera's live stream (RTSP or multipart JPEG) and print its URL."
    static let help = """
        usage: aibuds live start --device D [--rtsp | --jpeg] [--size WxH] [--fps N] [--bitrate KBPS] [--json]

        Starts the stream (a running one is stopped first) and prints its URL; the stream runs on
        until `aibuds live stop`. Sizes, rates and bit rates the device does not offer are refused
        with its status code (`aibuds live start --help` lists the options).

        options:
          --device D      a device name or MAC address, or udp://HOST:PORT
          --rtsp          H.264 over RTSP (the default)
          --jpeg          multipart JPEG over HTTP
          --size WxH      frame size, one the camera offers (640x360, 1280x720, 320x240 on the emulator)
          --fps N         frames per second
          --bitrate KBPS  H.264 bit rate in kbit/s
          --json          print the stream's state as JSON
        """

    var device: String
    var kind: LiveStreamKind
    var options: LiveStreamOptions
    var json: Bool

    init(_ arguments: inout Arguments) throws {
        guard let device = try arguments.option("--device") else { throw CommandFailure.usage("--device is required") }
        self.device = device
        (kind, options) = try LiveDeviceStream.options(&arguments)
        json = arguments.flag("--json")
    }

    func run() async throws -> ExitCode {
        let stream = try await LiveDeviceStream.open(device, kind: kind, options: options, startNew: true)
        await stream.device.disconnectAndWait()
        let status = stream.status
        if json {
            let object: [String: Any] = [
                "url": status.url?.absoluteString ?? "", "kind": status.kind?.rawValue ?? "", "width": status.width,
                "height": status.height, "fps": status.framesPerSecond, "bitrate_kbps": status.bitrateKbps ?? 0,
            ]
            CLI.sayJSON(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
        } else {
            CLI.say(try stream.url.absoluteString)
            CLI.say("\(status.kind?.rawValue ?? "") \(status.width)x\(status.height) at \(status.framesPerSecond) fps"
                + (status.bitrateKbps.map { ", \($0) kbit/s" } ?? ""))
        }
        return .ok
    }
}

/// `aibuds live stop`: ends the camera's live stream.
struct LiveStopCommand: CLICommand {
    static let path = ["live", "stop"]
    static let abstract = "Stop the camera's live stream."
    static let help = """
        usage: aibuds live stop --device D

        Ends the stream and disconnects its viewers; exits 1 when the camera does not stream.
        """

    var device: String

    init(_ arguments: inout Arguments) throws {
        guard let device = try arguments.option("--device") else { throw CommandFailure.usage("--device is required") }
        self.device = device
    }

    func run() async throws -> ExitCode {
        DeviceCommandSupport.initializeSDK()
        let found = try await DeviceCommandSupport.find(device)
        let (connected, live) = try await DeviceCommandSupport.connect(
            found, naming: device, as: (any LiveStreamingAPI).self, lacking: "has no camera that streams live")
        defer { connected.disconnect() }
        do { try await live.stopLiveStreaming() } catch { throw DeviceCommandSupport.failure(error, "live stop") }
        await connected.disconnectAndWait()
        CLI.say("stopped")
        return .ok
    }
}
