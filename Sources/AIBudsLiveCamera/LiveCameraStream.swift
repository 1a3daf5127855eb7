import AIBudsEmulator
import AIBudsLog
import AIBudsStabilization
import AIBudsSync
import AIBudsWire
import Foundation

/// One running stream of the camera: its server and its capture thread.
final class LiveCameraStream: @unchecked Sendable {
    let settings: LiveStreamSettings
    private let host: String
    private let shaping: DataPlaneShaping
    private let logger: any LogService
    private let rtsp: RTSPStreamServer?
    private let mjpeg: MJPEGStreamServer?
    private let stopped = Locked(false)
    private let suspended = Locked(false)
    private let stats = Locked(LiveCameraStatistics())
    private let captureEnded = DispatchSemaphore(value: 0)
    private let serverLock = Locked(())

    private let clip: LiveCameraClip?

    init(settings: LiveStreamSettings, host: String, shaping: DataPlaneShaping, logger: any LogService, clip: LiveCameraClip?) {
        self.clip = clip
        self.settings = settings
        self.host = host
        self.shaping = shaping
        self.logger = logger
        rtsp = settings.format == .rtsp ? RTSPStreamServer() : nil
        mjpeg = settings.format == .jpeg ? MJPEGStreamServer(host: host) : nil
    }

    /// Starts the server and the capture thread; returns the URL.
    func start() throws -> String {
        let encoder = try LiveVideoEncoder(
            h264: settings.format == .rtsp, width: settings.width, height: settings.height, fps: settings.fps,
            bitrateKbps: settings.bitrateKbps)
        let url = try rtsp?.start(host: host) ?? mjpeg!.start()
        let scene = clip == nil ? LiveScene(width: settings.width, height: settings.height) : nil
        let thread = Thread { [self] in
            if let clip {
                play(clip, encoder: encoder)
            } else if let scene {
                capture(scene: scene, encoder: encoder)
            }
            captureEnded.signal()
        }
        thread.name = "aibuds.live.camera"
        thread.qualityOfService = .userInteractive
        thread.start()
        return url
    }

    func stop() {
        guard !stopped.withLock({ value in
            defer { value = true }
            return value
        }) else { return }
        captureEnded.wait()
        serverLock.withLock { _ in
            rtsp?.stop()
            mjpeg?.stop()
        }
    }

    func suspend() {
        serverLock.withLock { _ in
            guard !stopped.withLock({ $0 }) else { return }
            suspended.withLock { $0 = true }
            rtsp?.suspend()
            mjpeg?.suspend()
        }
    }

    func resume() {
        serverLock.withLock { _ in
            guard !stopped.withLock({ $0 }) else { return }
            rtsp?.resume()
            do { try mjpeg?.resume() } catch { logger.log(.warning, "live", "the JPEG stream cannot listen again: \(error)") }
            suspended.withLock { $0 = false }
        }
    }

    var statistics: LiveCameraStatistics {
        var value = stats.withLock { $0 }
        value.sessions = rtsp?.mediaStarted ?? 0
        return value
    }

    /// The capture schedule: a frame every 1/fps seconds on the monotonic clock; a late frame is
    /// captured at once and the schedule moves on (no burst).
    private struct Schedule {
        let clock = ContinuousClock()
        let start: ContinuousClock.Instant
        let interval: Duration
        var due: ContinuousClock.Instant
        var number: UInt32 = 0
        var linkFreeAt: ContinuousClock.Instant

        init(fps: Int) {
            start = clock.now
            interval = .nanoseconds(1_000_000_000 / Int64(fps))
            due = start
            linkFreeAt = start
        }

        /// Waits until the next frame is due; its stamp (the wall-clock capture time).
        mutating func next() -> LiveFrameStamp {
            let now = clock.now
            if due > now { Thread.sleep(forTimeInterval: (due - now).timeInterval) }
            due = max(due + interval, clock.now)
            var wall = timespec()
            clock_gettime(CLOCK_REALTIME, &wall)
            defer { number &+= 1 }
            return LiveFrameStamp(captureMicroseconds: UInt64(wall.tv_sec) * 1_000_000 + UInt64(wall.tv_nsec / 1000), frameNumber: number)
        }
    }

    /// Renders, stamps, encodes and delivers a frame every 1/fps seconds until stopped.
    private func capture(scene: LiveScene, encoder: LiveVideoEncoder) {
        var schedule = Schedule(fps: settings.fps)
        while !stopped.withLock({ $0 }) {
            let stamp = schedule.next()
            let seconds = (schedule.clock.now - schedule.start).timeInterval
            let keyFrame = stamp.frameNumber == 0 || rtsp?.takeKeyFrameRequest() == true
            let frames: [EncodedFrame]
            do {
                frames = try encoder.encode(stamp, keyFrame: keyFrame) { scene.draw(stamp, seconds: seconds, into: $0) }
            } catch {
                logger.log(.error, "live", "the camera's encoder failed: \(error)")
                return
            }
            deliver(frames, &schedule)
        }
    }

    private struct Stop: Error {}

    /// Plays `clip` as what the camera sees, looping, until stopped: each frame with the log's
    /// readings since the previous frame sent. A frame's capture stamp is its exposure time on
    /// the camera's clock (the stream's start plus the clip's time, loops included), not the
    /// moment this thread got to it, as a sensor's timing is its own: a frame sent late is latency,
    /// and the readings' times stay consistent from frame to frame. At a rate below the clip's,
    /// frames are skipped (their readings go with the next one sent). The clip's picture carries
    /// no burned-in stamp (it is what the lens saw); the SEI stamp is there as always.
    private func play(_ clip: LiveCameraClip, encoder: LiveVideoEncoder) {
        var schedule = Schedule(fps: settings.fps)
        var wall = timespec()
        clock_gettime(CLOCK_REALTIME, &wall)
        let startMicroseconds = UInt64(wall.tv_sec) * 1_000_000 + UInt64(wall.tv_nsec / 1000)
        let clipFrameTime = 1 / Double(clip.framesPerSecond)
        let streamFrameTime = 1 / Double(settings.fps)
        var loopStart = 0.0
        var lastSent = -clipFrameTime
        var nextDue = 0.0
        while !stopped.withLock({ $0 }) {
            var lastTime = 0.0
            do {
                try VideoFrameReader.forEachFrame(clip.video) { time, planes in
                    guard !stopped.withLock({ $0 }) else { throw Stop() }
                    lastTime = time
                    let streamTime = loopStart + time
                    guard streamTime >= nextDue - clipFrameTime / 2 else { return }
                    nextDue += streamFrameTime
                    let due = schedule.start + .microseconds(Int64((streamTime * 1_000_000).rounded()))
                    let now = schedule.clock.now
                    if due > now { Thread.sleep(forTimeInterval: (due - now).timeInterval) }
                    let stamp = LiveFrameStamp(
                        captureMicroseconds: startMicroseconds + UInt64((streamTime * 1_000_000).rounded()), frameNumber: schedule.number)
                    schedule.number &+= 1
                    let keyFrame = stamp.frameNumber == 0 || rtsp?.takeKeyFrameRequest() == true
                    let motion = clip.motion(after: lastSent - loopStart, through: time)
                    lastSent = streamTime
                    let frames = try encoder.encode(stamp, keyFrame: keyFrame, motion: motion) { picture in
                        let targets = [(picture.luma, picture.lumaStride), (picture.cb, picture.chromaStride), (picture.cr, picture.chromaStride)]
                        for (plane, (target, stride)) in zip(planes, targets) {
                            for row in 0..<plane.height {
                                (target + row * stride).update(from: plane.base + row * plane.stride, count: plane.width)
                            }
                        }
                    }
                    deliver(frames, &schedule)
                }
            } catch is Stop {
                return
            } catch {
                logger.log(.error, "live", "the camera cannot play \(clip.video.lastPathComponent): \(error)")
                return
            }
            loopStart += lastTime + clipFrameTime
        }
    }

    /// Hands encoded frames to the server after the link's shaping.
    private func deliver(_ frames: [EncodedFrame], _ schedule: inout Schedule) {
        stats.withLock { $0.captured += 1 }
        let clock = schedule.clock
        for frame in frames {
            // The link: the frame takes its share of the shaped rate, then half the round trip.
            if let rate = shaping.bytesPerSecond {
                let departure = max(schedule.linkFreeAt, clock.now) + .nanoseconds(Int64(frame.bytes.count) * 1_000_000_000 / rate)
                schedule.linkFreeAt = departure
                let arrival = departure + shaping.roundTrip / 2
                if arrival > clock.now { Thread.sleep(forTimeInterval: (arrival - clock.now).timeInterval) }
            }
            guard !suspended.withLock({ $0 }) else { continue }
            if let rtsp {
                if rtsp.push(frame.bytes) { stats.withLock { $0.delivered += 1 } }
            } else if let mjpeg {
                mjpeg.publish(frame)
                stats.withLock { $0.delivered += 1 }
            }
        }
    }
}
