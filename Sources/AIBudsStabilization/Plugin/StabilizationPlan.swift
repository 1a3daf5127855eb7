/// The per-frame decisions of one stabilization, made before any pixel is decoded: the real and
/// virtual camera tracks, the readout, and each frame's zoom.
public struct StabilizationPlan: Sendable {
    /// The lens at the video's size.
    public let lens: LensModel
    /// The video's size.
    public let width: Int, height: Int
    /// The measured camera orientation.
    public let raw: OrientationTrack
    /// The stabilized camera orientation.
    public let virtual: OrientationTrack
    /// The readout time in seconds (0 for a global shutter).
    public let readoutTime: Double
    /// The readout order.
    public let direction: ReadoutDirection
    /// Frame presentation times (seconds from the first).
    public let frameTimes: [Double]
    /// Each frame's zoom.
    public let zooms: [Double]

    /// Plans the stabilization of a video described by `info` with `log` and `profile`.
    public init(info: VideoStreamInfo, log: GyroLog, profile: LensProfile, settings: StabilizationSettings) {
        lens = profile.lens(width: info.width, height: info.height)
        width = info.width
        height = info.height
        raw = MahonyOrientationFilter().track(log.samples)
        virtual = OrientationSmoother(mode: settings.smoothing, horizonLock: settings.horizonLock).smooth(raw)
        readoutTime = max(0, settings.readoutTime ?? log.frameReadoutTime ?? profile.frameReadoutTime ?? 0)
        direction = log.readoutDirection ?? profile.readoutDirection ?? .topToBottom
        frameTimes = info.frameTimes
        let planner = ZoomPlanner(maximumZoom: max(1, settings.maximumZoom))
        let unzoomed = info.frameTimes.map { [lens, raw, virtual, readoutTime, direction, width, height] time in
            FrameCorrection(
                lens: lens, width: width, height: height, zoom: 1, time: time, raw: raw, virtual: virtual.orientation(at: time),
                readoutTime: readoutTime, direction: direction)
        }
        zooms = planner.plan(required: unzoomed.map(planner.requiredZoom), frameRate: info.frameRate)
    }

    /// The correction for the frame presented at `time` (its zoom is the nearest planned frame's).
    public func correction(at time: Double) -> FrameCorrection {
        FrameCorrection(
            lens: lens, width: width, height: height, zoom: zoom(at: time), time: time, raw: raw, virtual: virtual.orientation(at: time),
            readoutTime: readoutTime, direction: direction)
    }

    /// The planned zoom of the frame nearest `time`.
    public func zoom(at time: Double) -> Double {
        guard !zooms.isEmpty else { return 1 }
        var low = 0, high = frameTimes.count - 1
        while high - low > 1 {
            let middle = (low + high) / 2
            if frameTimes[middle] <= time { low = middle } else { high = middle }
        }
        return abs(frameTimes[high] - time) < abs(frameTimes[low] - time) ? zooms[high] : zooms[low]
    }
}
