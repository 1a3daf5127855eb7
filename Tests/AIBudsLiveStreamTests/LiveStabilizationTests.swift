import AIBudsEmulator
import AIBudsLiveCamera
import AIBudsLiveStream
import AIBudsProcess
import AIBudsStabilization
import AIBudsSync
import AIBudsSyntheticVideo
import AIBudsTestKit
import AIBudsWire
import Foundation
import Testing

/// The live stream stabilized from the motion it carries, against the emulated glasses playing a
/// rendered 30 fps clip whose motion is known (a slow pan plus a 3–8 Hz head-worn shake, seen
/// through the glasses' fisheye with a rolling shutter), measured by block matching between
/// consecutive decoded frames (`GlobalMotionEstimator`, the stabilization benchmark's measure),
/// which knows nothing of the stabilizer.
@Suite("Live stabilization: the emulated camera playing a shaky clip with its motion", .timeLimit(.minutes(6)))
struct LiveStabilizationTests {
    /// The motion SEI payload reads back as written; foreign or damaged payloads give nil.
    @Test func motionPayloadRoundTrip() throws {
        let samples = (0..<17).map { index in
            LiveMotionSample(
                offsetMicroseconds: Int32(-2_000 * index), gyro: SIMD3(Float(index) * 0.01, -0.5, 3.25),
                accel: SIMD3(0.99, Float(index) * -0.001, 0.02))
        }
        let payload = LiveMotionSEI.payload(samples)
        #expect(payload.count == 18 + 17 * 28)
        #expect(LiveMotionSEI.samples(fromPayload: payload) == samples)
        let gyroOnly = samples.map { LiveMotionSample(offsetMicroseconds: $0.offsetMicroseconds, gyro: $0.gyro, accel: nil) }
        #expect(LiveMotionSEI.samples(fromPayload: LiveMotionSEI.payload(gyroOnly)) == gyroOnly)
        #expect(LiveMotionSEI.samples(fromPayload: payload.dropLast()) == nil)
        #expect(LiveMotionSEI.samples(fromPayload: LiveFrameStamp(captureMicroseconds: 1, frameNumber: 2).seiPayload) == nil)
        var nan = payload
        nan.replaceSubrange(22..<26, with: [0x7F, 0xC0, 0x00, 0x00])
        #expect(LiveMotionSEI.samples(fromPayload: nan) == nil)
    }

    /// Every frame of a played clip carries the clip's readings since the previous frame, stamped
    /// before its capture time, at the log's rate.
    @Test func framesCarryTheClipsMotion() async throws {
        let clip = try await onOwnThread { try ShakyClip.shared() }
        let emulator = try LiveEmulator(clip: clip.clip)
        defer { emulator.stop() }
        let url = try emulator.start("rtsp", width: UInt64(clip.clip.width), height: UInt64(clip.clip.height), fps: 30)
        let puller = try LiveStreamPuller(url: url)
        let log = FrameLog(puller, keepPixels: true)
        puller.start()
        defer { puller.stop() }
        try await eventually("20 frames") { log.frames.count >= 20 }
        let frames = log.frames.dropFirst()
        for frame in frames {
            // 500 Hz at 30 fps: 16 or 17 readings, all within the frame time before capture.
            #expect((16...17).contains(frame.motion.count), "\(frame.motion.count)")
            #expect(frame.motion.allSatisfy { (-33_400...0).contains($0.offsetMicroseconds) && $0.accel != nil })
        }
    }

    /// The live model run over the clip's file frame by frame, each frame corrected once the
    /// readings reach its look-ahead (what the live path does, without the network's timing):
    /// residual jitter well below the clip's, and not far from the offline stabilizer's.
    @Test func causalModelOnTheClipFile() async throws {
        let clip = try await onOwnThread { try ShakyClip.shared() }
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let live = folder.appendingPathComponent("live-model.mp4")
        let offline = folder.appendingPathComponent("offline.mp4")
        try await onOwnThread {
            let (width, height) = (clip.clip.width, clip.clip.height)
            var model = LiveStabilizationModel(profile: .aibudsGlasses, width: width, height: height, frameRate: 30, lookahead: 2.5 / 30)
            let samples = clip.clip.log.samples
            var next = 0
            let warper = FrameWarper()
            try VideoTranscoder().run(input: clip.clip.video, output: live, shouldStop: { false }, progress: { _ in }) { frame in
                while next < samples.count, samples[next].time <= frame.time + model.lookahead {
                    model.add([samples[next]])
                    next += 1
                }
                guard let correction = model.correction(forFrameAt: frame.time) else { throw NoCorrection() }
                warper.warp(WarpMap(correction, width: width, height: height), source: frame.source, destination: frame.destination)
            }
            try GyroStabilizer(settings: StabilizationSettings(searchesTimeOffset: false)).stabilize(
                input: clip.clip.video, log: clip.clip.log, profile: .aibudsGlasses, output: offline)
        }
        let rawMotion = try await onOwnThread { try Jitter.measure(clip.clip.video) }
        let liveMotion = try await onOwnThread { try Jitter.measure(live) }
        let offlineMotion = try await onOwnThread { try Jitter.measure(offline) }
        #expect(liveMotion.jitter < rawMotion.jitter / 4, "live \(liveMotion.jitter) px against raw \(rawMotion.jitter) px")
        #expect(liveMotion.jitter < offlineMotion.jitter * 4 + 0.5, "live \(liveMotion.jitter) px against offline \(offlineMotion.jitter) px")
        #expect(liveMotion.mean.x * rawMotion.mean.x > 0, "pan \(liveMotion.mean) against \(rawMotion.mean)")
    }

    /// `aibuds live record --stabilize`'s path: pull, stabilize, record the stabilized MP4 and the
    /// raw one side by side; the stabilized one's residual jitter is well below the raw stream's
    /// and below vid.stab's offline result on the same clip, the pan is kept, and no frame is lost.
    @Test func stabilizedRecordingBeatsTheRawStreamAndVidStab() async throws {
        let clip = try await onOwnThread { try ShakyClip.shared() }
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let emulator = try LiveEmulator(clip: clip.clip)
        defer { emulator.stop() }
        let url = try emulator.start("rtsp", width: UInt64(clip.clip.width), height: UInt64(clip.clip.height), fps: 30)
        let puller = try LiveStreamPuller(url: url)
        // A queue for the whole recording: a debug build on a loaded machine falls behind real time
        // (the benchmark measures real time at 720p30 with a release build); no frame may be lost.
        let stabilizer = LiveStreamStabilizer(from: puller, lens: .aibudsGlasses, configuration: .init(bitrateKbps: 8_000, queueLimit: 1_000))
        let stabilizedFile = folder.appendingPathComponent("stabilized.mp4")
        let rawFile = folder.appendingPathComponent("raw.mp4")
        let stabilized = LiveStreamRecorder(from: stabilizer, to: stabilizedFile)
        let raw = LiveStreamRecorder(from: puller, to: rawFile)
        puller.start()
        // 3.5 s of the 6 s clip: the pull stops before the clip loops (a loop's seam is a cut the
        // readings know nothing of), however far a debug build's stabilizer is behind.
        try await eventually("105 frames pulled", timeout: .seconds(60)) { stabilizer.statistics.received >= 105 }
        try await onOwnThread {
            puller.stop()
            stabilizer.finish()
            stabilized.finish()
            raw.finish()
        }
        let stats = stabilizer.statistics
        #expect(stats.dropped == 0)
        #expect(stats.uncorrected == 0)
        #expect(stats.stabilized == stats.received)
        #expect(stabilized.failure == nil && raw.failure == nil)
        // Each frame waits for its look-ahead's readings (2.5 frame times of 3 frames).
        let added = try #require(stats.addedLatencyP50)
        #expect(added >= 80_000, "added latency p50 \(added) µs")

        let rawMotion = try await onOwnThread { try Jitter.measure(rawFile) }
        let liveMotion = try await onOwnThread { try Jitter.measure(stabilizedFile) }
        #expect(liveMotion.frames >= 100)
        #expect(liveMotion.jitter < rawMotion.jitter / 4, "live \(liveMotion.jitter) px against raw \(rawMotion.jitter) px")
        // The pan stays: the stabilized picture drifts the same way, scaled by the zoom.
        #expect(rawMotion.mean.x.magnitude > 0.5)
        #expect(liveMotion.mean.x * rawMotion.mean.x > 0, "pan \(liveMotion.mean) against \(rawMotion.mean)")
        #expect((0.6...2.6).contains(liveMotion.mean.x / rawMotion.mean.x), "pan \(liveMotion.mean) against \(rawMotion.mean)")

        // vid.stab on the clip the camera played, when this ffmpeg has it. A frame lost before the
        // stabilizer (gst-rtsp-server drops a TCP client's backlog when a debug build under load
        // reads late) takes its readings with it and leaves a jump the offline tools never see:
        // the bar holds for a stream that arrived whole (the benchmark's release run: 0.22 px
        // against vid.stab's 0.35 at 360p).
        if let vidstab = try await Jitter.vidstab(clip.clip.video, in: folder) {
            if stats.missing == 0 {
                #expect(liveMotion.jitter < vidstab, "live \(liveMotion.jitter) px against vid.stab \(vidstab) px")
            } else {
                #expect(liveMotion.jitter < vidstab * 8, "live \(liveMotion.jitter) px against vid.stab \(vidstab) px, \(stats.missing) frames lost upstream")
            }
        }
    }
}

/// The live model gave no correction for a frame though readings had arrived.
struct NoCorrection: Error {}

/// The rendered clip the tests play (rendered once per process).
struct ShakyClip: Sendable {
    let clip: LiveCameraClip
    private static let cache = Locked<ShakyClip?>(nil)

    /// 6 s at 640×360 (a debug build renders 720p too slowly for a test), 30 fps, with its
    /// `.gcsv` at 500 Hz (20 ms readout).
    static func shared() throws -> ShakyClip {
        try cache.withLock { cached in
            if let cached { return cached }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("aibuds-live-stabilization-\(getpid())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let width = 640, height = 360, fps = 30, seconds = 6.0
            let profile = LensProfile.aibudsGlasses
            let motion = SyntheticMotion()
            let renderer = SyntheticRenderer(
                width: width, height: height, lens: profile.lens(width: width, height: height), readoutTime: profile.frameReadoutTime ?? 0)
            let video = folder.appendingPathComponent("clip.mp4")
            try SyntheticVideoFiles.writeH264(
                frameCount: Int(seconds * Double(fps)), width: width, height: height, fps: fps, to: video, crf: 16, preset: "veryfast"
            ) { renderer.render(motion, at: Double($0) / Double(fps)) }
            let gcsv = SyntheticSidecars.gcsv(motion, seconds: seconds + 0.1, readoutMs: (profile.frameReadoutTime ?? 0) * 1000)
            let log = try GyroLogParser.parse(Data(gcsv.utf8))
            let made = ShakyClip(clip: try LiveCameraClip(video: video, log: log))
            cached = made
            return made
        }
    }
}

/// Residual jitter by block matching (the stabilization benchmark's measure).
enum Jitter {
    struct Result: Sendable {
        var frames: Int
        var jitter: Double
        var mean: SIMD2<Double>
    }

    static func measure(_ video: URL) throws -> Result {
        var previous: [UInt8]?
        var shifts: [SIMD2<Double>] = []
        var frames = 0
        try SyntheticVideoFiles.forEachLuma(video) { plane, width, height in
            if let previous { shifts.append(GlobalMotionEstimator(width: width, height: height).shift(from: previous, to: plane)) }
            previous = plane
            frames += 1
        }
        let mean = shifts.reduce(SIMD2<Double>.zero, +) / Double(max(1, shifts.count))
        return Result(frames: frames, jitter: GlobalMotionEstimator.jitter(shifts), mean: mean)
    }

    /// vid.stab's two passes on `video` with its defaults, encoded like the benchmark
    /// (`veryfast`, CRF 20); its jitter, or nil when ffmpeg has no vid.stab.
    static func vidstab(_ video: URL, in folder: URL) async throws -> Double? {
        let filters = try await ChildProcess.run("/usr/bin/ffmpeg", ["-hide_banner", "-filters"])
        guard filters.text.contains("vidstabdetect") else { return nil }
        let transforms = folder.appendingPathComponent("transforms.trf").path
        let out = folder.appendingPathComponent("vidstab.mp4")
        let detect = try await ChildProcess.run(
            "/usr/bin/ffmpeg", ["-v", "error", "-y", "-i", video.path, "-vf", "vidstabdetect=result=\(transforms)", "-f", "null", "-"])
        #expect(detect.termination.succeeded, "\(detect.errorText)")
        let transform = try await ChildProcess.run("/usr/bin/ffmpeg", [
            "-v", "error", "-y", "-i", video.path, "-vf", "vidstabtransform=input=\(transforms)", "-c:v", "libx264", "-preset", "veryfast",
            "-crf", "20", out.path,
        ])
        #expect(transform.termination.succeeded, "\(transform.errorText)")
        return try await onOwnThread { try measure(out).jitter }
    }
}
