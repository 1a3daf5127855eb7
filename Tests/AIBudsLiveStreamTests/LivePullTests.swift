import AIBudsEmulator
import AIBudsFoundation
import AIBudsLiveCamera
import AIBudsLiveStream
import AIBudsTestKit
import AIBudsWire
import Foundation
import Testing

@Suite("Live stream: the emulated camera pulled over RTSP and multipart JPEG", .timeLimit(.minutes(3)))
struct LivePullTests {
    /// Frames arrive in order, each with the camera's stamp in-band (SEI or part header) equal to
    /// the one burned into its pixels, within a sane delay of capture.
    @Test(arguments: [("rtsp", LiveStreamTransport.tcp), ("rtsp", .udp), ("jpeg", .tcp)])
    func framesArriveStampedAndInOrder(format: String, transport: LiveStreamTransport) async throws {
        let emulator = try LiveEmulator()
        defer { emulator.stop() }
        let url = try emulator.start(format)
        #expect(url.scheme == (format == "rtsp" ? "rtsp" : "http"))
        let puller = try LiveStreamPuller(url: url, configuration: .init(transport: transport))
        let log = FrameLog(puller)
        puller.start()
        defer { puller.stop() }
        try await eventually("30 frames over \(format)/\(transport)") { log.frames.count >= 30 }
        let frames = log.frames
        #expect(frames.allSatisfy { $0.width == 320 && $0.height == 240 })
        let stamps = frames.compactMap(\.stamp)
        #expect(stamps.count == frames.count)
        // The in-band stamp equals the burned-in one for every frame.
        let matches = log.events.filter { $0.hasPrefix("burned") }
        #expect(matches.allSatisfy { line in
            let parts = line.split(separator: " ")
            return parts[1] == parts[3]
        }, "\(matches.prefix(5))")
        let numbers = stamps.map(\.frameNumber)
        #expect(numbers == numbers.sorted() && Set(numbers).count == numbers.count)
        if transport == .tcp, format == "rtsp" {
            // TCP loses nothing once the first frame arrived.
            #expect(numbers.last! - numbers.first! == UInt32(numbers.count - 1))
        }
        let latencies = frames.compactMap(\.latencyMicroseconds)
        #expect(latencies.allSatisfy { $0 > 0 && $0 < 5_000_000 }, "\(latencies.prefix(10))")
        #expect(emulator.device.workState == .streaming)
    }

    /// The frames as an AsyncSequence, and the device's events while it streams.
    @Test func asyncFramesAndDeviceEvents() async throws {
        let emulator = try LiveEmulator()
        defer { emulator.stop() }
        let before = emulator.device.events(since: 0).seq
        let url = try emulator.start("rtsp")
        let puller = try LiveStreamPuller(url: url)
        let frames = puller.frames(bufferingNewest: 64)
        puller.start()
        var seen = [LiveFrame]()
        for await frame in frames {
            seen.append(frame)
            if seen.count == 10 { break }
        }
        puller.stop()
        // In order from the first frame; a consumer starved by a loaded machine may miss frames the
        // stream's buffer (the newest 64) let go, so the sequence may skip but never goes back.
        let sequences = seen.map(\.sequence)
        #expect(sequences.first == 0 && zip(sequences, sequences.dropFirst()).allSatisfy { $0 < $1 }, "\(sequences)")
        #expect(seen.allSatisfy { $0.stamp != nil && $0.captureTime != nil })
        try emulator.device.stopLiveStream()
        let events = emulator.device.events(since: before).events
        let kinds = events.map(\.kind)
        #expect(kinds.filter { $0 == DeviceEventKind.liveStream }.count == 2)
        let states = events.filter { $0.kind == DeviceEventKind.workState }.compactMap { $0.value["state"]?.int }
        #expect(states == [WorkState.streaming.rawValue, WorkState.btOrBleConnectedIdle.rawValue])
        #expect(throws: EmulatorError.self) { try emulator.device.stopLiveStream() }
    }

    /// What the camera offers is checked: an unknown size, a rate above the maximum, a bit rate
    /// outside the range, a second stream, a video recording while streaming.
    @Test func startIsChecked() throws {
        let emulator = try LiveEmulator()
        defer { emulator.stop() }
        let device = emulator.device
        #expect(throws: EmulatorError.self) { try device.startLiveStream(LiveStartRequest(format: "rtsp", width: 123, height: 45)) }
        #expect(throws: EmulatorError.self) { try device.startLiveStream(LiveStartRequest(format: "rtsp", fps: 31)) }
        #expect(throws: EmulatorError.self) { try device.startLiveStream(LiveStartRequest(format: "rtsp", bitrateKbps: 1)) }
        #expect(throws: EmulatorError.self) { try device.startLiveStream(LiveStartRequest(format: "hls")) }
        let state = try device.startLiveStream(LiveStartRequest(format: "jpeg"))
        #expect(state.streaming && state.width == 640 && state.height == 360 && state.fps == 30 && state.bitrateKbps == nil)
        let busy = #expect(throws: EmulatorError.self) { try device.startLiveStream(LiveStartRequest(format: "rtsp")) }
        #expect(busy?.code == .busy)
        let recording = #expect(throws: EmulatorError.self) { try device.startRecording(video: true) }
        #expect(recording?.code == .busy)
        #expect(try device.liveState() == state)
    }

    /// Recording to MP4: every frame from the first key frame, in order, readable by ffprobe.
    @Test func recordsToMP4() async throws {
        let emulator = try LiveEmulator()
        defer { emulator.stop() }
        let url = try emulator.start("rtsp")
        let folder = try makeTemporaryDirectory("live-record")
        let file = folder.appendingPathComponent("live.mp4")
        let puller = try LiveStreamPuller(url: url, configuration: .init(decodes: false))
        let recorder = LiveStreamRecorder(from: puller, to: file)
        puller.start()
        do {
            try await eventually("60 recorded frames") { recorder.framesWritten >= 60 }
        } catch {
            // What the puller saw tells a camera that stopped sending from a recorder that stopped writing.
            Issue.record("\(recorder.framesWritten) frames written; puller \(puller.statistics); recorder failure \(String(describing: recorder.failure))")
            throw error
        }
        puller.stop()
        recorder.finish()
        #expect(recorder.failure == nil)
        let written = recorder.framesWritten
        #expect(try await probedFrameCount(of: file) == written)
        let numbers = try await decodedStamps(of: file, width: 320, height: 240).map { $0?.frameNumber }
        #expect(numbers.count == written && !numbers.contains(nil))
        let values = numbers.compactMap { $0 }
        #expect(values == Array(values.first!...(values.first! + UInt32(values.count - 1))))
    }

    /// A JPEG stream is not pushed or recorded without re-encoding: a typed refusal.
    @Test func jpegIsRefusedForRTMP() async throws {
        let emulator = try LiveEmulator()
        defer { emulator.stop() }
        let url = try emulator.start("jpeg")
        let folder = try makeTemporaryDirectory("live-jpeg-record")
        let puller = try LiveStreamPuller(url: url, configuration: .init(decodes: false))
        let recorder = LiveStreamRecorder(from: puller, to: folder.appendingPathComponent("x.mp4"))
        puller.start()
        try await eventually("the recorder to refuse") { recorder.failure != nil }
        puller.stop()
        #expect(recorder.failure?.kind == .unsupportedCodec)
        #expect(throws: LiveStreamError.self) { try LiveStreamPuller(url: URL(string: "ftp://127.0.0.1/x")!) }
        #expect(throws: LiveStreamError.self) { try LiveStreamPusher(from: puller, to: URL(string: "rtmp://127.0.0.1/")!) }
    }
}
