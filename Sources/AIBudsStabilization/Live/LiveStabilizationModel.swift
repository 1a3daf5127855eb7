import Foundation

/// The file path's motion model run on a live stream, causally with a short look-ahead: the same
/// Mahony integration step (``MahonyOrientationFilter``), the same exponential smoother on the
/// rotation group (``OrientationSmoother``'s forward and backward passes and adaptive time
/// constants), the same per-row rolling-shutter and lens correction (``FrameCorrection``) and the
/// same zoom planner (``ZoomPlanner``).
///
/// What differs from a file is only what is known when. Samples arrive with the frames; a frame
/// is corrected once the samples reach ``lookahead`` seconds past it. Where the file path runs the
/// exponential smoother forward then backward over the whole clip, the live one runs it forward
/// twice with half the time constant (causal, kept from frame to frame: the same lag as one pass,
/// shake attenuated as the square, as by the file's pair) and backward from the newest sample to
/// the frame, so the look-ahead is all the "future" the virtual camera sees (a fixed-lag smoother).
/// The zoom plan sees the past second of frames and the look-ahead (the need of its last frame,
/// with its virtual orientation as far as known). Times are seconds on the stream's clock (any origin), the
/// frame's time its middle row's exposure.
public struct LiveStabilizationModel: Sendable {
    /// The lens at the stream's size.
    public let lens: LensModel
    /// The stream's frame size.
    public let width: Int, height: Int
    /// The rolling-shutter readout time in seconds (0: a global shutter).
    public let readoutTime: Double
    /// The readout order.
    public let direction: ReadoutDirection
    /// How far past a frame the samples must reach before it is corrected, in seconds.
    public let lookahead: Double
    /// The stream's frame rate (for the zoom plan's window).
    public let frameRate: Double
    private let smoothing: SmoothingMode
    private let horizonLock: Bool
    private let filter = MahonyOrientationFilter()
    private let planner: ZoomPlanner

    private var times: [Double] = []
    private var orientations: [Quaternion] = []
    private var lastSample: ImuSample?
    private var integrated = Quaternion.identity
    private var bias = SIMD3<Double>.zero
    private var forwardTime: Double?
    private var forward = Quaternion.identity
    private var forward2 = Quaternion.identity
    private var fixedOrientation: Quaternion?
    private var pastRequired: [Double] = []

    /// A model for a `width` × `height` stream at `frameRate` seen through `profile`, smoothing
    /// and zooming as `settings` say (its encoder and time-search fields do not apply: a live
    /// stream's samples are stamped on the video's clock), with `lookahead` seconds of samples
    /// past each frame. The readout time is `settings`' or else the profile's.
    public init(
        profile: LensProfile, width: Int, height: Int, frameRate: Double, settings: StabilizationSettings = StabilizationSettings(),
        lookahead: Double = 0.1
    ) {
        lens = profile.lens(width: width, height: height)
        self.width = width
        self.height = height
        self.frameRate = frameRate > 0 ? frameRate : 30
        readoutTime = max(0, settings.readoutTime ?? profile.frameReadoutTime ?? 0)
        direction = profile.readoutDirection ?? .topToBottom
        self.lookahead = max(0, lookahead)
        smoothing = settings.smoothing
        horizonLock = settings.horizonLock
        planner = ZoomPlanner(maximumZoom: max(1, settings.maximumZoom))
    }

    /// Adds readings in the camera frame (``ImuSample``) in increasing time; a reading not later
    /// than the newest one is ignored.
    public mutating func add(_ samples: [ImuSample]) {
        for sample in samples where sample.time.isFinite {
            if let previous = lastSample {
                guard sample.time > previous.time else { continue }
                filter.advance(&integrated, bias: &bias, from: previous, to: sample)
            } else {
                integrated = filter.initialOrientation(samples)
            }
            lastSample = sample
            times.append(sample.time)
            orientations.append(integrated)
        }
    }

    /// The newest reading's time.
    public var latestSampleTime: Double? { times.last }

    /// Whether the readings reach ``lookahead`` past `time` (the frame can be corrected as well
    /// as it will ever be).
    public func isReady(forFrameAt time: Double) -> Bool {
        guard let last = times.last else { return false }
        return last >= time + lookahead
    }

    /// The correction of the frame at `time` (frames in increasing time); nil until two readings
    /// have arrived. Call it once per frame: it moves the smoother's forward pass and the zoom
    /// plan on.
    public mutating func correction(forFrameAt time: Double) -> FrameCorrection? {
        guard times.count >= 2 else { return nil }
        let maximum: Double
        switch smoothing {
        case .adaptive(let smoothness): maximum = OrientationSmoother.maximumTimeConstant(smoothness: smoothness)
        case .timeConstant(let seconds): maximum = max(0.001, seconds.isFinite ? seconds : 0.5)
        case .fixed: maximum = 1
        }
        // The forward pass's last kept state, and the window from there to the newest reading.
        let start = forwardTime.map { index(atOrAfter: $0) } ?? 0
        let context = min(start, index(atOrAfter: time - 1))
        let windowTimes = Array(times[start...])
        var windowRaw = Array(orientations[start...])
        if forwardTime != nil { windowRaw[0] = forward }
        let constants: [Double]
        switch smoothing {
        case .adaptive:
            let velocityTrack = OrientationTrack(times: Array(times[context...]), orientations: Array(orientations[context...]))
            constants = Array(OrientationSmoother.adaptiveTimeConstants(velocityTrack, maximum: maximum)[(start - context)...])
        case .timeConstant, .fixed:
            constants = [Double](repeating: maximum, count: windowTimes.count)
        }
        // Two forward passes of half the time constant each: the same lag as one pass of the whole
        // (a turn is followed as closely) but shake attenuated as the square, as the file path's
        // forward-backward pair does; then the backward pass over what the look-ahead holds.
        let halves = constants.map { $0 / 2 }
        let first = OrientationSmoother.forwardPass(
            OrientationTrack(times: windowTimes, orientations: windowRaw), timeConstants: halves)
        var firstSeeded = first
        if forwardTime != nil { firstSeeded[0] = forward2 }
        let second = OrientationSmoother.forwardPass(OrientationTrack(times: windowTimes, orientations: firstSeeded), timeConstants: halves)
        let smoothed = OrientationTrack(
            times: windowTimes, orientations: OrientationSmoother.backwardPass(second, times: windowTimes, timeConstants: halves))
        let raw = OrientationTrack(times: Array(times[context...]), orientations: Array(orientations[context...]))
        func virtual(at t: Double) -> Quaternion {
            if case .fixed = smoothing {
                if fixedOrientation == nil { fixedOrientation = raw.orientation(at: t) }
                return fixedOrientation!
            }
            let q = smoothed.orientation(at: t)
            return horizonLock ? OrientationSmoother.levelled(q) : q
        }
        let current = virtual(at: time)
        // Keep the forward pass up to the frame (its readings' time constants are now final enough).
        if let kept = windowTimes.lastIndex(where: { $0 <= time }), kept > 0 || forwardTime == nil {
            forward = first[kept]
            forward2 = second[kept]
            forwardTime = windowTimes[kept]
        }
        // Zoom: the past second's needs, this frame's, and the last look-ahead frame's as now known.
        let (lens, width, height, readoutTime, direction) = (lens, width, height, readoutTime, direction)
        func correction(_ t: Double, _ q: Quaternion, _ zoom: Double) -> FrameCorrection {
            FrameCorrection(
                lens: lens, width: width, height: height, zoom: zoom, time: t, raw: raw, virtual: q, readoutTime: readoutTime,
                direction: direction)
        }
        let required = planner.requiredZoom(correction(time, current, 1))
        var future: [Double] = []
        let ahead = Int((lookahead * frameRate).rounded(.down))
        if ahead > 0, let last = times.last {
            let t = min(last, time + Double(ahead) / frameRate)
            future = [Double](repeating: planner.requiredZoom(correction(t, virtual(at: t), 1)), count: ahead)
        }
        let plan = planner.plan(required: pastRequired + [required] + future, frameRate: frameRate)
        let zoom = plan[pastRequired.count]
        pastRequired.append(required)
        let keep = max(1, Int((planner.window * frameRate).rounded()))
        if pastRequired.count > keep { pastRequired.removeFirst(pastRequired.count - keep) }
        // Readings older than the context the next frame needs are dropped.
        let drop = min(index(atOrAfter: forwardTime ?? time), index(atOrAfter: time - 1.5))
        if drop > 0 {
            times.removeFirst(drop)
            orientations.removeFirst(drop)
        }
        return correction(time, current, zoom)
    }

    /// The index of the first reading at or after `time` (the last one when none is).
    private func index(atOrAfter time: Double) -> Int {
        var low = 0, high = times.count - 1
        guard times[high] >= time else { return high }
        while low < high {
            let middle = (low + high) / 2
            if times[middle] < time { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
