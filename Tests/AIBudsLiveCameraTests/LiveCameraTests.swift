import AIBudsEmulator
import AIBudsLiveCamera
import AIBudsTestKit
import AIBudsWire
import Foundation
import Testing

/// The emulated camera on its own (no emulator, no SDK puller): its RTSP and multipart JPEG
/// servers on free loopback ports, read by FFmpeg's `ffprobe` and `ffmpeg` programs, each decoded
/// frame checked by the stamp the camera burns into its picture.
/// One camera at a time: GStreamer's RTSP servers of several cameras at once in one process once
/// left an `ffprobe` waiting for its answer.
@Suite("Live camera: RTSP and multipart JPEG served to FFmpeg", .serialized, .timeLimit(.minutes(3)))
struct LiveCameraTests {
    /// A camera on the loopback streaming `format` at 320×240 and `fps`; returns it and its URL.
    static func start(_ format: LiveStreamFormat, fps: Int = 15) throws -> (LiveCamera, URL) {
        let camera = LiveCamera(host: "127.0.0.1")
        let settings = LiveStreamSettings(format: format, width: 320, height: 240, fps: fps, bitrateKbps: 1_000)
        let url = try #require(URL(string: try camera.start(settings) {}))
        return (camera, url)
    }

    /// Decodes `count` frames of the stream at `url` with `ffmpeg`; the stamps burned into them.
    static func stamps(_ url: URL, count: Int, _ inputOptions: [String] = []) async throws -> [LiveFrameStamp?] {
        let folder = try makeTemporaryDirectory("livecamera")
        defer { try? FileManager.default.removeItem(at: folder) }
        return try await decodedStamps(
            of: url, width: 320, height: 240, inputOptions: inputOptions, frames: count, raw: folder.appendingPathComponent("frames.gray"))
    }

    /// Every frame carries a readable stamp, numbered in capture order, captured just now.
    static func expectLiveFrames(_ stamps: [LiveFrameStamp?], count: Int, since start: Date) {
        #expect(stamps.count == count)
        let read = stamps.compactMap { $0 }
        #expect(read.count == count, "every decoded frame carries its burned-in stamp")
        let numbers = read.map(\.frameNumber)
        #expect(zip(numbers, numbers.dropFirst()).allSatisfy { $0 < $1 }, "frame numbers rise: \(numbers)")
        let startMicroseconds = UInt64(start.timeIntervalSince1970 * 1_000_000)
        let nowMicroseconds = UInt64(Date().timeIntervalSince1970 * 1_000_000)
        #expect(read.allSatisfy { $0.captureMicroseconds >= startMicroseconds - 1_000_000 && $0.captureMicroseconds <= nowMicroseconds })
    }

    @Test("RTSP: H.264 at the size asked, real frames stamped in order, each viewer session counted")
    func rtspServesH264() async throws {
        let start = Date()
        let (camera, url) = try Self.start(.rtsp)
        defer { camera.stop() }
        #expect(url.scheme == "rtsp" && url.host == "127.0.0.1" && url.port != nil && url.port != 0)
        let probed = try await probeVideo(url, ["-show_entries", "stream=codec_name,width,height"], inputOptions: ["-rtsp_transport", "tcp"])
        #expect(probed.split(separator: "\n") == ["h264", "320", "240"])
        Self.expectLiveFrames(try await Self.stamps(url, count: 10, ["-rtsp_transport", "tcp"]), count: 10, since: start)
        let statistics = camera.statistics
        #expect(statistics.sessions >= 2, "ffprobe's and ffmpeg's sessions")
        #expect(statistics.captured >= 10 && statistics.delivered >= 10)
    }

    @Test("multipart JPEG: each part a JPEG of the size asked, stamped in order")
    func jpegServesFrames() async throws {
        let start = Date()
        let (camera, url) = try Self.start(.jpeg)
        defer { camera.stop() }
        #expect(url.scheme == "http" && url.path == "/live.mjpeg" && url.port != 0)
        let probed = try await probeVideo(url, ["-show_entries", "stream=codec_name,width,height"], inputOptions: ["-f", "mpjpeg"])
        #expect(probed.split(separator: "\n") == ["mjpeg", "320", "240"])
        Self.expectLiveFrames(try await Self.stamps(url, count: 10, ["-f", "mpjpeg"]), count: 10, since: start)
        #expect(camera.statistics.captured >= 10)
    }

    @Test("a dropped hotspot refuses viewers until it comes back on the same URL; a stopped camera serves nothing")
    func dropAndStop() async throws {
        let (camera, url) = try Self.start(.jpeg)
        defer { camera.stop() }
        camera.dropHotspot(for: .seconds(2))
        await #expect(throws: VideoProbeFailure.self) {
            _ = try await probeVideo(url, ["-show_entries", "stream=codec_name"], inputOptions: ["-f", "mpjpeg"])
        }
        try await eventually("the JPEG stream served again after the drop", timeout: .seconds(30)) {
            try await Task.sleep(for: .milliseconds(200))
            return (try? await probeVideo(url, ["-show_entries", "stream=codec_name"], inputOptions: ["-f", "mpjpeg"])) == "mjpeg\n"
        }
        let captured = camera.statistics.captured
        camera.stop()
        #expect(captured > 0)
        await #expect(throws: VideoProbeFailure.self) {
            _ = try await probeVideo(url, ["-show_entries", "stream=codec_name"], inputOptions: ["-f", "mpjpeg"])
        }
    }
}
