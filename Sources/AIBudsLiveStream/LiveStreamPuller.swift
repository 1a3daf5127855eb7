import AIBudsLog
import AIBudsSync
import Foundation

/// What happens to a pulled stream's connection.
public enum LiveStreamEvent: Sendable {
    /// Connected (again); the stream's codec.
    case connected(LiveCodecParameters)
    /// The connection ended or could not be made; the puller tries again.
    case disconnected(LiveStreamError)
    /// The puller gave up (nil: stopped by the app).
    case ended(LiveStreamError?)
}

/// Counts of a puller's work.
public struct LiveStreamStatistics: Sendable, Equatable {
    /// Connections that delivered the stream's description (the first one and each reconnection).
    public var connections = 0
    /// Packets read.
    public var packets = 0
    /// Frames decoded.
    public var frames = 0
    /// Connections lost or refused.
    public var failures = 0
}

/// Pulls a device's live stream — `rtsp://` through FFmpeg's libavformat (TCP or UDP transport)
/// or a multipart JPEG `http://` stream — on a thread of its own, decodes it, and hands each
/// packet and each decoded frame (with its capture stamp) to the handlers and the
/// ``frames(bufferingNewest:)`` sequences. A lost connection (the hotspot blipped, the server
/// restarted) is retried with backoff (0.1 s doubling to 1 s) until one succeeds or
/// ``Configuration/reconnectWindow`` passes without any, which ends the puller.
public final class LiveStreamPuller: Sendable {
    /// How to pull.
    public struct Configuration: Sendable {
        /// RTP over the RTSP connection (TCP) or over UDP; ignored for JPEG streams.
        public var transport: LiveStreamTransport
        /// How long to keep trying to reconnect before giving up.
        public var reconnectWindow: Duration
        /// Whether to decode (false: packets only, for a push or a recording without a view).
        public var decodes: Bool

        /// TCP, a 15 s reconnect window, decoding.
        public init(transport: LiveStreamTransport = .tcp, reconnectWindow: Duration = .seconds(15), decodes: Bool = true) {
            self.transport = transport
            self.reconnectWindow = reconnectWindow
            self.decodes = decodes
        }
    }

    /// The stream's URL.
    public let url: URL
    /// How it pulls.
    public let configuration: Configuration
    private let logger: any LogService
    private let interrupt = InterruptFlag()
    private let handlers = LiveStreamHandlers()
    private let stats = Locked(LiveStreamStatistics())
    private let finished = DispatchSemaphore(value: 0)
    private let started = Locked(false)

    /// A puller of `url` (`rtsp://` or `http://`); nothing connects until ``start()``.
    public init(url: URL, configuration: Configuration = Configuration(), logger: any LogService = NullLogService()) throws {
        guard let scheme = url.scheme?.lowercased(), ["rtsp", "http"].contains(scheme), url.host != nil else {
            throw LiveStreamError(.invalidURL, "a live stream is rtsp:// or http://, not \(url.absoluteString)")
        }
        self.url = url
        self.configuration = configuration
        self.logger = logger
    }

    /// Calls `handler` with every decoded frame, on the puller's thread (keep it short).
    public func onFrame(_ handler: @escaping @Sendable (LiveFrame) -> Void) { handlers.add(frame: handler) }

    /// Calls `handler` with every packet as read, before it is decoded, on the puller's thread.
    public func onPacket(_ handler: @escaping @Sendable (LivePacket) -> Void) { handlers.add(packet: handler) }

    /// Calls `handler` with every connection event, on the puller's thread.
    public func onEvent(_ handler: @escaping @Sendable (LiveStreamEvent) -> Void) { handlers.add(event: handler) }

    /// The decoded frames from now on as an async sequence; a slow consumer gets the newest
    /// `bufferingNewest` frames (a view wants the latest picture). It finishes when the puller ends.
    public func frames(bufferingNewest: Int = 8) -> AsyncStream<LiveFrame> {
        let (stream, continuation) = AsyncStream<LiveFrame>.makeStream(bufferingPolicy: .bufferingNewest(bufferingNewest))
        onFrame { continuation.yield($0) }
        onEvent { if case .ended = $0 { continuation.finish() } }
        return stream
    }

    /// What the puller did so far.
    public var statistics: LiveStreamStatistics { stats.withLock { $0 } }

    /// Starts pulling on a thread of its own. Only the first call starts.
    public func start() {
        guard !started.withLock({ value in
            defer { value = true }
            return value
        }) else { return }
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "aibuds.live.pull"
        thread.qualityOfService = .userInteractive
        thread.start()
    }

    /// Stops pulling and waits until the thread is done; the handlers hear `.ended(nil)`.
    public func stop() {
        interrupt.set()
        guard started.withLock({ $0 }) else { return }
        finished.wait()
        finished.signal()
    }

    /// Waits (off the caller's thread) until the puller ends.
    public func waitUntilEnded() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let finished = self.finished
            DispatchQueue.global().async {
                finished.wait()
                finished.signal()
                continuation.resume()
            }
        }
    }

    private func run() {
        var failingSince: ContinuousClock.Instant?
        var backoff = Duration.milliseconds(100)
        var sequence = 0
        var lastError: LiveStreamError?
        while !interrupt.isSet {
            do {
                let reader: any LivePacketReader = url.scheme?.lowercased() == "rtsp"
                    ? try RTSPReader(url: url.absoluteString, transport: configuration.transport, interrupt: interrupt)
                    : try MJPEGReader(url: url, interrupt: interrupt)
                let decoder = configuration.decodes ? try LiveDecoder(reader.parameters) : nil
                stats.withLock { $0.connections += 1 }
                handlers.emit(.connected(reader.parameters))
                while !interrupt.isSet {
                    let packet = try reader.read()
                    // A read that a stop interrupted may return the access unit cut short (its
                    // SEI without the picture): nothing read after the stop is handed on.
                    guard !interrupt.isSet else { break }
                    failingSince = nil
                    backoff = .milliseconds(100)
                    handlers.emit([packet])
                    let frames = decoder?.decode(packet, sequence: &sequence) ?? []
                    stats.withLock {
                        $0.packets += 1
                        $0.frames += frames.count
                    }
                    handlers.emit(frames)
                }
            } catch {
                guard !interrupt.isSet else { break }
                let failure = error as? LiveStreamError ?? LiveStreamError(.unreachable, "\(error)")
                lastError = failure
                stats.withLock { $0.failures += 1 }
                logger.log(.info, "live", "\(url.absoluteString): \(failure); reconnecting")
                handlers.emit(.disconnected(failure))
                let now = ContinuousClock.now
                let since = failingSince ?? now
                failingSince = since
                if now - since >= configuration.reconnectWindow {
                    handlers.emit(.ended(LiveStreamError(.unreachable, "gave up after \(configuration.reconnectWindow): \(failure.message)",
                                                code: failure.code)))
                    return
                }
                sleep(backoff)
                backoff = min(backoff * 2, .seconds(1))
            }
        }
        _ = lastError
        handlers.emit(.ended(nil))
    }

    /// Sleeps `duration` in short steps, returning early when stopped.
    private func sleep(_ duration: Duration) {
        let end = ContinuousClock.now + duration
        while !interrupt.isSet, ContinuousClock.now < end { Thread.sleep(forTimeInterval: 0.02) }
    }
}
