import AIBudsEmulator
import AIBudsLog
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

    init(settings: LiveStreamSettings, host: String, shaping: DataPlaneShaping, logger: any LogService) {
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
        let scene = LiveScene(width: settings.width, height: settings.height)
        let thread = Thread { [self] in
            capture(scene: scene, encoder: encoder)
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

    /// Renders, stamps, encodes and delivers a frame every 1/fps seconds on the monotonic clock
    /// until stopped; a late frame is captured at once and the schedule moves on (no burst).
    private func capture(scene: LiveScene, encoder: LiveVideoEncoder) {
        let clock = ContinuousClock()
        let start = clock.now
        let interval = Duration.nanoseconds(1_000_000_000 / Int64(settings.fps))
        var due = start
        var number: UInt32 = 0
        var linkFreeAt = start
        while !stopped.withLock({ $0 }) {
            let now = clock.now
            if due > now { Thread.sleep(forTimeInterval: (due - now).timeInterval) }
            due = max(due + interval, clock.now)
            var wall = timespec()
            clock_gettime(CLOCK_REALTIME, &wall)
            let stamp = LiveFrameStamp(
                captureMicroseconds: UInt64(wall.tv_sec) * 1_000_000 + UInt64(wall.tv_nsec / 1000), frameNumber: number)
            let seconds = (clock.now - start).timeInterval
            let keyFrame = number == 0 || rtsp?.takeKeyFrameRequest() == true
            let frames: [EncodedFrame]
            do {
                frames = try encoder.encode(stamp, keyFrame: keyFrame) { scene.draw(stamp, seconds: seconds, into: $0) }
            } catch {
                logger.log(.error, "live", "the camera's encoder failed: \(error)")
                return
            }
            number &+= 1
            stats.withLock { $0.captured += 1 }
            for frame in frames {
                // The link: the frame takes its share of the shaped rate, then half the round trip.
                if let rate = shaping.bytesPerSecond {
                    let departure = max(linkFreeAt, clock.now) + .nanoseconds(Int64(frame.bytes.count) * 1_000_000_000 / rate)
                    linkFreeAt = departure
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
}
