import AIBudsLog
import AIBudsStabilization
import AIBudsSync
import AIBudsWire
import Foundation

/// What a ``LiveStreamStabilizer`` did so far.
public struct LiveStabilizationStatistics: Sendable, Equatable {
    /// Frames the source delivered.
    public var received = 0
    /// Frames stabilized, encoded and handed on.
    public var stabilized = 0
    /// Frames dropped because the stabilizer fell more than its queue behind (their readings are
    /// kept for the next frame).
    public var dropped = 0
    /// Frames handed on without a correction (no readings yet, or a stream that carries none).
    public var uncorrected = 0
    /// Frames the source never delivered (gaps in the stamps' frame numbers: lost on the way or
    /// not decoded); their readings are missing too, so the orientation across the gap is
    /// interpolated and the picture may jump once there.
    public var missing = 0
    /// Latency the stabilizer added, from the source's decode of a frame to its encoded packet,
    /// in microseconds: the median and the 95th percentile (nil before the first frame).
    public var addedLatencyP50: Int64?
    /// See ``addedLatencyP50``.
    public var addedLatencyP95: Int64?
    /// From the camera's capture stamp to the encoded packet, in microseconds (glass to
    /// stabilized frame): the median and the 95th percentile.
    public var captureLatencyP50: Int64?
    /// See ``captureLatencyP50``.
    public var captureLatencyP95: Int64?
}

/// Stabilizes a live stream from the motion it carries: the decoded frames of a source (a
/// ``LiveStreamPuller``), each with its capture stamp and IMU readings, go through the file
/// stabilizer's motion model run causally (``/AIBudsStabilization/LiveStabilizationModel``) with a
/// look-ahead of a few frames, the same warp (``/AIBudsStabilization/FrameWarper``), and libx264
/// with low-latency settings. It is a ``LiveStreamSource`` itself: recorders, pushers, the viewer
/// and frame files take it as they take a puller.
///
/// The work runs on a thread of its own behind a queue, so the source never waits; a frame is held
/// until the readings reach its look-ahead (the added latency: the look-ahead plus the warp and
/// encode). Frames the queue cannot hold are dropped and counted.
public final class LiveStreamStabilizer: LiveStreamSource, Sendable {
    /// How to stabilize.
    public struct Configuration: Sendable {
        /// Smoothing, horizon lock, the largest zoom and the readout time (the file stabilizer's
        /// settings; its encoder and time-search fields do not apply).
        public var stabilization: StabilizationSettings
        /// Frames of readings past a frame before it is corrected (0 is causal; each frame adds a
        /// frame time of latency).
        public var lookaheadFrames: Int
        /// The stream's frame rate (the device's `fps`).
        public var framesPerSecond: Int
        /// The stabilized stream's H.264 bit rate in kbit/s.
        public var bitrateKbps: Int
        /// libx264's threads (sliced: no added latency).
        public var encoderThreads: Int
        /// Frames waiting for the stabilizer before the oldest is dropped.
        public var queueLimit: Int

        /// The adaptive smoother, 3 frames of look-ahead at 30 fps, 4,000 kbit/s, 2 encoder
        /// threads, a queue of 30 frames.
        public init(
            stabilization: StabilizationSettings = StabilizationSettings(), lookaheadFrames: Int = 3, framesPerSecond: Int = 30,
            bitrateKbps: Int = 4_000, encoderThreads: Int = 2, queueLimit: Int = 30
        ) {
            self.stabilization = stabilization
            self.lookaheadFrames = lookaheadFrames
            self.framesPerSecond = framesPerSecond
            self.bitrateKbps = bitrateKbps
            self.encoderThreads = encoderThreads
            self.queueLimit = queueLimit
        }
    }

    /// The camera's lens.
    public let lens: LensProfile
    /// How it stabilizes.
    public let configuration: Configuration
    private let logger: any LogService
    private let handlers = LiveStreamHandlers()
    private let input = Locked(Input())
    private let stats = Locked(Stats())
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    private struct Input {
        var queue: [LiveFrame] = []
        /// Readings of dropped frames: their capture time and the readings.
        var orphans: [(UInt64, [LiveMotionSample])] = []
        var ended = false
        var endReason: LiveStreamError?
    }

    private struct Stats {
        var counts = LiveStabilizationStatistics()
        var lastFrameNumber: UInt32?
        var added: [Int64] = []
        var capture: [Int64] = []
    }

    /// Stabilizes `source`'s frames seen through `lens`; register it before the source starts.
    /// Its thread starts at once and ends when the source ends (or at ``finish()``).
    public init(
        from source: any LiveStreamSource, lens: LensProfile, configuration: Configuration = Configuration(),
        logger: any LogService = NullLogService()
    ) {
        self.lens = lens
        self.configuration = configuration
        self.logger = logger
        source.onFrame { [weak self] frame in self?.enqueue(frame) }
        source.onEvent { [weak self] event in
            guard let self else { return }
            switch event {
            case .connected: break
            case .disconnected: handlers.emit(event)
            case .ended(let reason): end(reason)
            }
        }
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "aibuds.live.stabilize"
        thread.qualityOfService = .userInteractive
        thread.start()
    }

    /// Calls `handler` with every stabilized frame, on the stabilizer's thread (keep it short).
    public func onFrame(_ handler: @escaping @Sendable (LiveFrame) -> Void) { handlers.add(frame: handler) }

    /// Calls `handler` with every encoded packet of the stabilized stream, on its thread.
    public func onPacket(_ handler: @escaping @Sendable (LivePacket) -> Void) { handlers.add(packet: handler) }

    /// Calls `handler` with the stabilized stream's events: `connected` once its encoder is open,
    /// the source's `disconnected`, and `ended` after the last frame is handed on.
    public func onEvent(_ handler: @escaping @Sendable (LiveStreamEvent) -> Void) { handlers.add(event: handler) }

    /// What it did so far.
    public var statistics: LiveStabilizationStatistics {
        stats.withLock { stats in
            var counts = stats.counts
            (counts.addedLatencyP50, counts.addedLatencyP95) = Self.percentiles(stats.added)
            (counts.captureLatencyP50, counts.captureLatencyP95) = Self.percentiles(stats.capture)
            return counts
        }
    }

    /// Stabilizes the frames still held (with the readings there are), hands them on and waits
    /// until the thread is done; later frames are ignored. The source's end does the same.
    public func finish() {
        end(nil)
        finished.wait()
        finished.signal()
    }

    private static func percentiles(_ values: [Int64]) -> (Int64?, Int64?) {
        guard !values.isEmpty else { return (nil, nil) }
        let sorted = values.sorted()
        func at(_ fraction: Double) -> Int64 { sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))] }
        return (at(0.5), at(0.95))
    }

    private func enqueue(_ frame: LiveFrame) {
        let dropped = input.withLock { input -> Bool in
            guard !input.ended else { return false }
            input.queue.append(frame)
            guard input.queue.count > max(1, configuration.queueLimit) else { return false }
            let oldest = input.queue.removeFirst()
            if let stamp = oldest.stamp, !oldest.motion.isEmpty { input.orphans.append((stamp.captureMicroseconds, oldest.motion)) }
            return true
        }
        stats.withLock { stats in
            stats.counts.received += 1
            if dropped { stats.counts.dropped += 1 }
            if let number = frame.stamp?.frameNumber {
                if let last = stats.lastFrameNumber, number > last { stats.counts.missing += Int(number - last - 1) }
                stats.lastFrameNumber = number
            }
        }
        wake.signal()
    }

    private func end(_ reason: LiveStreamError?) {
        input.withLock {
            if !$0.ended { $0.endReason = reason }
            $0.ended = true
        }
        wake.signal()
    }

    // MARK: The stabilizer's thread

    /// One stream size's model and encoder.
    private final class Session {
        var model: LiveStabilizationModel
        let encoder: LiveH264Encoder
        let warper: FrameWarper
        let origin: UInt64
        var pending: [(frame: LiveFrame, time: Double)] = []
        var lastPTS: Int64 = -1
        var sequence = 0

        init(model: LiveStabilizationModel, encoder: LiveH264Encoder, origin: UInt64) {
            self.model = model
            self.encoder = encoder
            self.origin = origin
            warper = FrameWarper()
        }

        func time(_ microseconds: UInt64) -> Double { Double(Int64(bitPattern: microseconds &- origin)) / 1_000_000 }
    }

    private func run() {
        var session: Session?
        while true {
            wake.wait()
            let (frames, orphans, ended, reason) = input.withLock { input in
                defer {
                    input.queue.removeAll()
                    input.orphans.removeAll()
                }
                return (input.queue, input.orphans, input.ended, input.endReason)
            }
            for (capture, motion) in orphans { if let session { add(motion, capturedAt: capture, to: session) } }
            for frame in frames {
                do {
                    session = try process(frame, in: session)
                } catch {
                    logger.log(.error, "live", "the stabilizer stops: \(error)")
                    handlers.emit(.ended(error as? LiveStreamError ?? LiveStreamError(.output, "\(error)")))
                    return
                }
            }
            if ended {
                if let session { while !session.pending.isEmpty { try? output(session) } }
                handlers.emit(.ended(reason))
                return
            }
        }
    }

    private func add(_ motion: [LiveMotionSample], capturedAt capture: UInt64, to session: Session) {
        let base = session.time(capture)
        session.model.add(motion.map { sample in
            ImuSample(
                time: base + Double(sample.offsetMicroseconds) / 1_000_000,
                gyro: ImuAxisMapping.cameraFrame(fromLogFrame: SIMD3<Double>(sample.gyro)),
                accel: sample.accel.map { ImuAxisMapping.cameraFrame(fromLogFrame: SIMD3<Double>($0)) })
        })
    }

    /// Takes `frame` into `session` (a new one for the first frame or a new size) and hands on
    /// every held frame whose readings now reach its look-ahead.
    private func process(_ frame: LiveFrame, in current: Session?) throws -> Session {
        var session = current
        if let existing = session, existing.encoder.width != frame.width || existing.encoder.height != frame.height {
            while !existing.pending.isEmpty { try output(existing) }
            session = nil
        }
        let fps = max(1, configuration.framesPerSecond)
        let capture = frame.stamp?.captureMicroseconds ?? frame.decodedMicroseconds
        if session == nil {
            let lookahead = configuration.lookaheadFrames > 0 ? (Double(configuration.lookaheadFrames) - 0.5) / Double(fps) : 0
            let model = LiveStabilizationModel(
                profile: lens, width: frame.width, height: frame.height, frameRate: Double(fps),
                settings: configuration.stabilization, lookahead: lookahead)
            let encoder = try LiveH264Encoder(
                width: frame.width, height: frame.height, fps: fps, bitrateKbps: configuration.bitrateKbps,
                threads: configuration.encoderThreads)
            session = Session(model: model, encoder: encoder, origin: capture)
            handlers.emit(.connected(encoder.parameters))
        }
        guard let session else { throw LiveStreamError(.output, "no session") }
        add(frame.motion, capturedAt: capture, to: session)
        session.pending.append((frame, session.time(capture)))
        while let first = session.pending.first,
            session.model.isReady(forFrameAt: first.time) || session.pending.count > configuration.lookaheadFrames + 3
        {
            try output(session)
        }
        return session
    }

    /// Warps, encodes and hands on the oldest held frame.
    private func output(_ session: Session) throws {
        let (frame, time) = session.pending.removeFirst()
        let correction = session.model.correction(forFrameAt: time)
        let encoder = session.encoder
        try encoder.prepare()
        guard let picture = encoder.picture else { throw LiveStreamError(.output, "the encoder is closed") }
        let width = frame.width, height = frame.height, chromaWidth = (width + 1) / 2, chromaHeight = (height + 1) / 2
        let destination = [
            PlaneBuffer(base: picture.pointee.data.0!, stride: Int(picture.pointee.linesize.0), width: width, height: height),
            PlaneBuffer(base: picture.pointee.data.1!, stride: Int(picture.pointee.linesize.1), width: chromaWidth, height: chromaHeight),
            PlaneBuffer(base: picture.pointee.data.2!, stride: Int(picture.pointee.linesize.2), width: chromaWidth, height: chromaHeight),
        ]
        var luma = frame.luma, cb = frame.cb, cr = frame.cr
        luma.withUnsafeMutableBufferPointer { y in
            cb.withUnsafeMutableBufferPointer { u in
                cr.withUnsafeMutableBufferPointer { v in
                    let source = [
                        PlaneBuffer(base: y.baseAddress!, stride: width, width: width, height: height),
                        PlaneBuffer(base: u.baseAddress!, stride: chromaWidth, width: chromaWidth, height: chromaHeight),
                        PlaneBuffer(base: v.baseAddress!, stride: chromaWidth, width: chromaWidth, height: chromaHeight),
                    ]
                    if let correction {
                        session.warper.warp(WarpMap(correction, width: width, height: height), source: source, destination: destination)
                    } else {
                        for plane in 0..<3 {
                            for row in 0..<source[plane].height {
                                (destination[plane].base + row * destination[plane].stride)
                                    .update(from: source[plane].base + row * source[plane].stride, count: source[plane].width)
                            }
                        }
                    }
                }
            }
        }
        var pts = Int64((time * 90_000).rounded())
        if pts <= session.lastPTS { pts = session.lastPTS + 1 }
        session.lastPTS = pts
        let packets = try encoder.encode(pts: pts, stamp: frame.stamp)
        let now = liveWallClockMicroseconds()
        handlers.emit(packets)
        stats.withLock { stats in
            stats.counts.stabilized += 1
            if correction == nil { stats.counts.uncorrected += 1 }
            if stats.added.count < 1_000_000 {
                stats.added.append(Int64(now) - Int64(frame.decodedMicroseconds))
                if let stamp = frame.stamp { stats.capture.append(Int64(now) - Int64(stamp.captureMicroseconds)) }
            }
        }
        guard handlers.wantsFrames else { return }
        func copy(_ plane: PlaneBuffer) -> [UInt8] {
            var out = [UInt8](repeating: 0, count: plane.width * plane.height)
            out.withUnsafeMutableBufferPointer { buffer in
                for row in 0..<plane.height {
                    (buffer.baseAddress! + row * plane.width).update(from: plane.base + row * plane.stride, count: plane.width)
                }
            }
            return out
        }
        let stabilized = LiveFrame(
            width: width, height: height, luma: copy(destination[0]), cb: copy(destination[1]), cr: copy(destination[2]),
            stamp: frame.stamp, decodedMicroseconds: now, sequence: session.sequence)
        session.sequence += 1
        handlers.emit([stabilized])
    }
}
