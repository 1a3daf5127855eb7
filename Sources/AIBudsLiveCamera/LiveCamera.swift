import AIBudsEmulator
import AIBudsLog
import AIBudsSync
import Foundation

/// The emulated glasses' camera streaming live: the ``/AIBudsEmulator/LiveStreamService`` an ``/AIBudsEmulator/Emulator`` is
/// given. Each stream renders `LiveScene` (or plays a ``LiveCameraClip`` with its readings) on a
/// thread of its own at the asked rate, stamps each
/// frame with its capture time and number, encodes it with FFmpeg (libx264 for RTSP, the JPEG
/// encoder for JPEG) and hands it to GStreamer's RTSP server or the multipart JPEG server, after
/// the link's shaping (`wifi`: 25 MB/s shared, 2.5 ms each way).
public final class LiveCamera: LiveStreamService, @unchecked Sendable {
    /// 640×360 by default, 1280×720 and 320×240; 1–30 fps (30 by default); 250–8,000 kbit/s
    /// (2,000 by default). Playing a clip: the clip's size only, up to its rate (its rate by
    /// default).
    public let offer: LiveStreamOffer
    /// The clip the camera plays instead of its rendered scene, if any.
    public let clip: LiveCameraClip?

    private let host: String
    private let shaping: DataPlaneShaping
    private let logger: any LogService
    private let current = Locked<LiveCameraStream?>(nil)

    /// A camera whose servers bind `host` (the device's address), shaped like `link`, filming its
    /// rendered scene or playing `clip` (looping, its readings sent with the frames).
    public init(host: String, link: LinkProfile = .unlimited, logger: any LogService = NullLogService(), clip: LiveCameraClip? = nil) {
        self.clip = clip
        if let clip {
            offer = LiveStreamOffer(
                sizes: [(clip.width, clip.height)], maxFps: clip.framesPerSecond, defaultFps: clip.framesPerSecond,
                bitrates: 250...8_000, defaultBitrateKbps: 2_000)
        } else {
            offer = LiveStreamOffer(
                sizes: [(640, 360), (1280, 720), (320, 240)], maxFps: 30, defaultFps: 30, bitrates: 250...8_000,
                defaultBitrateKbps: 2_000)
        }
        self.host = host
        shaping = link.dataPlaneShaping
        self.logger = logger
    }

    /// Starts the stream's server and its capture thread; returns the URL.
    public func start(_ settings: LiveStreamSettings, ended: @escaping @Sendable () -> Void) throws -> String {
        stop()
        let stream = LiveCameraStream(settings: settings, host: host, shaping: shaping, logger: logger, clip: clip)
        let url = try stream.start()
        current.withLock { $0 = stream }
        return url
    }

    /// Stops the stream; its viewers are disconnected.
    public func stop() {
        current.withLock { stream in
            defer { stream = nil }
            return stream
        }?.stop()
    }

    /// The hotspot goes away for `duration`: every viewer is disconnected and nothing is served
    /// (connections are refused) until it comes back on the same port; the camera keeps capturing.
    public func dropHotspot(for duration: Duration) {
        guard let stream = current.withLock({ $0 }) else { return }
        stream.suspend()
        DispatchQueue.global().asyncAfter(deadline: .now() + duration.timeInterval) { stream.resume() }
    }

    /// Frames captured and frames handed to viewers by the current stream.
    public var statistics: LiveCameraStatistics { current.withLock { $0?.statistics } ?? LiveCameraStatistics() }
}

/// What a camera stream did so far.
public struct LiveCameraStatistics: Sendable, Equatable {
    /// Frames rendered and encoded.
    public var captured = 0
    /// Frames handed to at least one viewer (RTSP) or published (JPEG).
    public var delivered = 0
    /// Viewer sessions that started (RTSP media).
    public var sessions = 0

    /// No frames yet.
    public init() {}
}

extension Duration {
    var timeInterval: TimeInterval { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
