import AIBudsEmulator
import AIBudsLiveCamera
import Foundation

/// The camera in a process of its own, so that its encoding is no client's CPU.
enum BenchServe {
    static func run(format: String) throws {
        guard let streamFormat = LiveStreamFormat(rawValue: format) else { throw BenchError("serve takes rtsp or jpeg") }
        let camera = LiveCamera(host: "127.0.0.1")
        let url = try camera.start(LiveStreamSettings(
            format: streamFormat, width: BenchStream.width, height: BenchStream.height, fps: BenchStream.fps,
            bitrateKbps: BenchStream.bitrateKbps)) {}
        FileHandle.standardOutput.write(Data((url + "\n").utf8))
        while true { sleep(60) }
    }
}
