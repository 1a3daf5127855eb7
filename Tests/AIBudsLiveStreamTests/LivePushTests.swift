import AIBudsEmulator
import AIBudsLiveCamera
import AIBudsLiveStream
import AIBudsTestKit
import Foundation
import Testing

@Suite("Live stream: RTMP push to nginx, and faults", .serialized, .timeLimit(.minutes(4)))
struct LivePushTests {
    /// Under the `wifi` link profile, every frame pushed reaches nginx: its recording, read back
    /// with ffprobe and ffmpeg, has exactly the frames sent, their burned-in numbers consecutive.
    @Test func pushReachesNginxWithoutLossUnderWifi() async throws {
        let nginx = try await RTMPServer()
        let emulator = try LiveEmulator(link: .wifi)
        defer { emulator.stop() }
        let (puller, pusher) = try startPush(from: emulator, to: nginx)
        try await eventually("90 frames pushed") { pusher.statistics.sent >= 90 }
        puller.stop()
        try await onOwnThread { pusher.stop(drain: true) }
        await nginx.stop()
        let stats = pusher.statistics
        #expect(stats.dropped == 0 && stats.connections == 1 && stats.queued == 0 && pusher.failure == nil)
        let recordings = try nginx.recordings()
        try #require(recordings.count == 1)
        let probed = try await probedFrameCount(of: recordings[0])
        #expect(probed == stats.sent, "\(probed) frames recorded, \(stats.sent) sent")
        let numbers = try await decodedStamps(of: recordings[0], width: 320, height: 240).map { $0?.frameNumber }
        #expect(numbers.count == stats.sent && !numbers.contains(nil), "\(numbers)")
        let values = numbers.compactMap { $0 }
        #expect(values == Array(values.first!...(values.first! + UInt32(values.count - 1))), "frames lost or reordered")
    }

    /// nginx restarts mid-push: the pusher reconnects and the new recording goes on with later
    /// frames (from the current group of pictures' key frame), in order.
    @Test func pushSurvivesAnNginxRestart() async throws {
        let nginx = try await RTMPServer()
        let emulator = try LiveEmulator()
        defer { emulator.stop() }
        let (puller, pusher) = try startPush(from: emulator, to: nginx)
        try await eventually("45 frames pushed") { pusher.statistics.sent >= 45 }
        await nginx.stop(publishing: true)
        try await nginx.start()
        let sentBefore = pusher.statistics.sent
        try await eventually("a second connection and 45 more frames") {
            pusher.statistics.connections >= 2 && pusher.statistics.sent >= sentBefore + 45
        }
        puller.stop()
        try await onOwnThread { pusher.stop(drain: true) }
        await nginx.stop()
        #expect(pusher.failure == nil)
        let recordings = try nginx.recordings()
        try #require(recordings.count >= 2)
        let first = try await decodedStamps(of: recordings[0], width: 320, height: 240).compactMap { $0?.frameNumber }
        let last = try await decodedStamps(of: recordings[recordings.count - 1], width: 320, height: 240).compactMap { $0?.frameNumber }
        #expect(!first.isEmpty && last.count >= 45)
        #expect(last == last.sorted() && Set(last).count == last.count)
        #expect(last.first! > first.first!)
    }

    /// The hotspot drops for 2 s: the puller loses the stream, reconnects when it is back, and
    /// frames go on with later numbers.
    @Test(arguments: [("rtsp", LiveStreamTransport.tcp), ("rtsp", .udp), ("jpeg", .tcp)])
    func pullReconnectsAfterAHotspotBlip(format: String, transport: LiveStreamTransport) async throws {
        let emulator = try LiveEmulator()
        defer { emulator.stop() }
        let url = try emulator.start(format)
        let puller = try LiveStreamPuller(url: url, configuration: .init(transport: transport))
        let log = FrameLog(puller)
        puller.start()
        defer { puller.stop() }
        try await eventually("frames before the blip") { log.frames.count >= 15 }
        emulator.camera.dropHotspot(for: .seconds(2))
        try await eventually("the puller to notice the blip") { log.events.contains { $0.hasPrefix("disconnected") } }
        let before = log.frames.count
        let lastBefore = log.frames.last?.stamp?.frameNumber ?? 0
        try await eventually("frames after the blip", timeout: .seconds(90)) {
            log.connections >= 2 && log.frames.count >= before + 15
        }
        let after = log.frames.suffix(10).compactMap(\.stamp?.frameNumber)
        #expect(after.allSatisfy { $0 > lastBefore + 30 }, "frames after a 2 s blip are at least a second later")
        #expect(log.ended == nil)
    }

    /// The device stops streaming: the puller tries for its reconnect window, then ends with
    /// `unreachable`; the device is idle again.
    @Test func pullEndsWhenTheDeviceStops() async throws {
        let emulator = try LiveEmulator()
        defer { emulator.stop() }
        let url = try emulator.start("rtsp")
        let puller = try LiveStreamPuller(url: url, configuration: .init(reconnectWindow: .seconds(2)))
        let log = FrameLog(puller)
        puller.start()
        defer { puller.stop() }
        try await eventually("frames") { log.frames.count >= 10 }
        try emulator.device.stopLiveStream()
        #expect(emulator.device.workState == .btOrBleConnectedIdle)
        try await eventually("the puller to give up") { log.ended != nil }
        #expect(log.ended??.kind == .unreachable)
    }

    /// Starts the emulator's RTSP stream, pulled without decoding and pushed to `nginx`.
    private func startPush(from emulator: LiveEmulator, to nginx: RTMPServer) throws -> (LiveStreamPuller, LiveStreamPusher) {
        let puller = try LiveStreamPuller(url: try emulator.start("rtsp"), configuration: .init(decodes: false))
        let pusher = try LiveStreamPusher(from: puller, to: nginx.url)
        pusher.start()
        puller.start()
        return (puller, pusher)
    }
}
