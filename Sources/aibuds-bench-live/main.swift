import AIBudsEmulator
import AIBudsLiveCamera
import AIBudsLiveStream
import AIBudsNet
import AIBudsWire
import Foundation

// Smoke: start the camera, pull it, print latencies.
let camera = LiveCamera(host: "127.0.0.1")
let format = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "rtsp"
let transport = CommandLine.arguments.count > 2 ? LiveStreamTransport(rawValue: CommandLine.arguments[2])! : .tcp
let url = try camera.start(LiveStreamSettings(format: LiveStreamFormat(rawValue: format)!, width: 640, height: 360, fps: 30, bitrateKbps: 2000)) {}
print("url", url)
let puller = try LiveStreamPuller(url: URL(string: url)!, configuration: .init(transport: transport))
puller.onEvent { print("event", $0) }
puller.onFrame { frame in
    if frame.sequence % 15 == 0 {
        print("frame", frame.sequence, frame.stamp as Any, frame.burnedInStamp as Any, frame.latencyMicroseconds as Any)
    }
}
puller.start()
Thread.sleep(forTimeInterval: 4)
puller.stop()
print(puller.statistics, camera.statistics)
camera.stop()
