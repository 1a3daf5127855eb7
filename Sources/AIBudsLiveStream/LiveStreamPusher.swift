import AIBudsLog
import AIBudsSync
import Foundation

/// Counts of a push.
public struct LiveStreamPushStatistics: Sendable, Equatable {
    /// Packets the RTMP server took.
    public var sent = 0
    /// Packets dropped because the queue was full (whole groups of pictures, oldest first).
    public var dropped = 0
    /// Connections to the RTMP server made (the first included).
    public var connections = 0
    /// Packets waiting now.
    public var queued = 0
}

/// Pushes a pulled H.264 stream to an RTMP endpoint (`rtmp://HOST[:PORT]/APP/KEY`) without
/// re-encoding: FLV through FFmpeg's RTMP client, on a thread of its own.
///
/// - **Backpressure**: the puller never waits for the network. Packets queue up to
///   ``Configuration/queueLimit``; past it the oldest whole group of pictures is dropped (and
///   counted), so the stream stays decodable and catches up.
/// - **Reconnect**: a failed write (the server restarted, the network blipped) closes the
///   connection and opens a new one with backoff (0.2 s doubling to 2 s), for up to
///   ``Configuration/reconnectWindow``; the new session starts with the current group of pictures
///   again (from its key frame), so no frame after a failure is lost to the viewer.
/// - A stream that is not H.264 (a JPEG stream) is refused with `unsupportedCodec`.
public final class LiveStreamPusher: Sendable {
    /// How to push.
    public struct Configuration: Sendable {
        /// The most packets waiting before groups of pictures are dropped.
        public var queueLimit: Int
        /// How long to keep reconnecting before giving up.
        public var reconnectWindow: Duration

        /// 600 packets (20 s at 30 fps), a 30 s reconnect window.
        public init(queueLimit: Int = 600, reconnectWindow: Duration = .seconds(30)) {
            self.queueLimit = queueLimit
            self.reconnectWindow = reconnectWindow
        }
    }

    /// The RTMP endpoint.
    public let url: URL
    /// How it pushes.
    public let configuration: Configuration
    private let logger: any LogService
    private let interrupt = InterruptFlag()
    private let state = Locked(State())
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    private struct State {
        var parameters: LiveCodecParameters?
        var queue: [LivePacket] = []
        var restartSource = false
        var stats = LiveStreamPushStatistics()
        var failure: LiveStreamError?
        var draining = false
    }

    /// A pusher of `puller`'s packets to `url`; call ``start()`` before the puller starts.
    public init(from puller: any LiveStreamSource, to url: URL, configuration: Configuration = Configuration(),
                logger: any LogService = NullLogService()) throws {
        guard url.scheme?.lowercased() == "rtmp", url.host != nil, url.path.split(separator: "/").count >= 2 else {
            throw LiveStreamError(.invalidURL, "push to rtmp://HOST[:PORT]/APP/KEY, not \(url.absoluteString)")
        }
        self.url = url
        self.configuration = configuration
        self.logger = logger
        puller.onEvent { [weak self] event in
            guard let self, case .connected(let parameters) = event else { return }
            state.withLock { state in
                state.restartSource = state.parameters != nil
                state.parameters = parameters
            }
            wake.signal()
        }
        puller.onPacket { [weak self] packet in self?.enqueue(packet) }
    }

    /// What the push did so far.
    public var statistics: LiveStreamPushStatistics {
        state.withLock { state in
            var stats = state.stats
            stats.queued = state.queue.count
            return stats
        }
    }

    /// Why the push gave up, if it did.
    public var failure: LiveStreamError? { state.withLock { $0.failure } }

    /// Starts the push thread.
    public func start() {
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "aibuds.live.push"
        thread.start()
    }

    /// Stops the push: with `drain`, what is queued is sent first (up to 10 s).
    public func stop(drain: Bool = true) {
        state.withLock { $0.draining = true }
        if drain {
            let deadline = ContinuousClock.now + .seconds(10)
            while ContinuousClock.now < deadline, state.withLock({ !$0.queue.isEmpty && $0.failure == nil }) {
                Thread.sleep(forTimeInterval: 0.02)
            }
        }
        interrupt.set()
        wake.signal()
        finished.wait()
        finished.signal()
    }

    private func enqueue(_ packet: LivePacket) {
        state.withLock { state in
            guard !state.draining else { return }
            state.queue.append(packet)
            if state.queue.count > configuration.queueLimit {
                // Drop the oldest group of pictures: up to the next key frame after the first packet.
                let next = state.queue.dropFirst().firstIndex { $0.isKeyFrame } ?? state.queue.count
                state.stats.dropped += next
                state.queue.removeFirst(next)
            }
        }
        wake.signal()
    }

    private func run() {
        var output: LiveRemuxer?
        var gop: [LivePacket] = []
        var failingSince: ContinuousClock.Instant?
        var backoff = Duration.milliseconds(200)
        while !interrupt.isSet {
            let (parameters, packet, restart) = state.withLock { state -> (LiveCodecParameters?, LivePacket?, Bool) in
                defer { state.restartSource = false }
                return (state.parameters, state.queue.first, state.restartSource)
            }
            guard let parameters, let packet else {
                _ = wake.wait(timeout: .now() + 0.1)
                continue
            }
            if restart {
                output?.restart()
                gop = []
            }
            do {
                if output == nil {
                    let opened = try LiveRemuxer(target: url.absoluteString, format: "flv", parameters: parameters, interrupt: interrupt)
                    state.withLock { $0.stats.connections += 1 }
                    // The new session starts from the current group's key frame.
                    for earlier in gop { try opened.write(earlier) }
                    output = opened
                }
                let took = try output!.write(packet)
                if packet.isKeyFrame { gop = [] }
                if took || !gop.isEmpty { gop.append(packet) }
                failingSince = nil
                backoff = .milliseconds(200)
                state.withLock { state in
                    if !state.queue.isEmpty { state.queue.removeFirst() }
                    if took { state.stats.sent += 1 }
                }
            } catch {
                output?.close(finish: false)
                output = nil
                guard !interrupt.isSet else { break }
                let failure = error as? LiveStreamError ?? LiveStreamError(.output, "\(error)")
                if case .unsupportedCodec = failure.kind {
                    state.withLock { $0.failure = failure }
                    return
                }
                logger.log(.info, "live", "push to \(url.absoluteString): \(failure); reconnecting")
                let now = ContinuousClock.now
                let since = failingSince ?? now
                failingSince = since
                if now - since >= configuration.reconnectWindow {
                    state.withLock { $0.failure = failure }
                    return
                }
                let end = ContinuousClock.now + backoff
                while !interrupt.isSet, ContinuousClock.now < end { Thread.sleep(forTimeInterval: 0.02) }
                backoff = min(backoff * 2, .seconds(2))
            }
        }
        output?.close(finish: true)
    }
}
