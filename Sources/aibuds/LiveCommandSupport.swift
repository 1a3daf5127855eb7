import AIBuds
import AIBudsEmulator
import AIBudsLiveStream
import AIBudsSMP
import AIBudsStabilization
import AIBudsSync
import Foundation

/// What the `aibuds live` commands share: connecting to the device, making sure its camera
/// streams, and running until Ctrl-C or `--duration`.
struct LiveDeviceStream {
    let device: any DeviceConvertible
    let live: any LiveStreamingAPI
    let status: LiveStreamStatus
    /// Whether this command started the stream (and so stops it when done).
    let startedHere: Bool

    /// Connects to `spec` and returns its stream of `kind`: the one it runs already, or a new one
    /// started with `options`.
    static func open(_ spec: String, kind: LiveStreamKind, options: LiveStreamOptions, startNew: Bool = false) async throws
        -> LiveDeviceStream
    {
        DeviceCommandSupport.initializeSDK()
        let found = try await DeviceCommandSupport.find(spec)
        let (device, live) = try await DeviceCommandSupport.connect(
            found, naming: spec, as: (any LiveStreamingAPI).self, lacking: "has no camera that streams live")
        do {
            let current = try await live.requestQueryLiveStreamStatus()
            if current.isStreaming, current.kind == kind, !startNew {
                return LiveDeviceStream(device: device, live: live, status: current, startedHere: false)
            }
            if current.isStreaming { try await live.stopLiveStreaming() }
            let started = try await live.startLiveStreaming(kind, options: options)
            return LiveDeviceStream(device: device, live: live, status: started, startedHere: true)
        } catch {
            await device.disconnectAndWait()
            throw DeviceCommandSupport.failure(error, "live stream")
        }
    }

    /// The stream's URL.
    var url: URL {
        get throws {
            guard let url = status.url else { throw CommandFailure.failure("the device reports no stream URL") }
            return url
        }
    }

    /// Stops the stream if this command started it, and disconnects.
    func close() async {
        if startedHere { try? await live.stopLiveStreaming() }
        await device.disconnectAndWait()
    }

    /// The kind, size, rate and bit rate options of a command line.
    static func options(_ arguments: inout Arguments) throws -> (LiveStreamKind, LiveStreamOptions) {
        let jpeg = arguments.flag("--jpeg")
        let rtsp = arguments.flag("--rtsp")
        guard !(jpeg && rtsp) else { throw CommandFailure.usage("give --rtsp or --jpeg, not both") }
        var options = LiveStreamOptions()
        if let size = try arguments.option("--size") {
            guard let parsed = LiveStreamSize(size) else { throw CommandFailure.usage("--size takes WxH, not '\(size)'") }
            options.width = parsed.width
            options.height = parsed.height
        }
        if let fps: Int = try arguments.number("--fps") {
            guard fps > 0 else { throw CommandFailure.usage("--fps must be positive") }
            options.framesPerSecond = fps
        }
        if let bitrate: Int = try arguments.number("--bitrate") {
            guard bitrate > 0 else { throw CommandFailure.usage("--bitrate must be positive (kbit/s)") }
            options.bitrateKbps = bitrate
        }
        return (jpeg ? .jpeg : .rtsp, options)
    }

    /// `--transport tcp|udp`.
    static func transport(_ arguments: inout Arguments) throws -> LiveStreamTransport {
        guard let text = try arguments.option("--transport") else { return .tcp }
        guard let transport = LiveStreamTransport(rawValue: text) else {
            throw CommandFailure.usage("--transport must be tcp or udp, not '\(text)'")
        }
        return transport
    }

    /// `--duration S` (nil: until Ctrl-C).
    static func duration(_ arguments: inout Arguments) throws -> Duration? {
        guard let seconds: Double = try arguments.number("--duration") else { return nil }
        guard seconds > 0, seconds <= 86_400 else { throw CommandFailure.usage("--duration takes 0 to 86400 seconds") }
        return .milliseconds(Int64(seconds * 1000))
    }

    /// Waits for SIGINT/SIGTERM, or `duration` when given, or until `puller` ends, whichever
    /// comes first (the others are left behind: a signal wait never returns otherwise).
    static func wait(for duration: Duration?, or puller: LiveStreamPuller) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let once = FirstOf(continuation)
            Task { await Emulator.waitForTerminationSignal(); once.resume() }
            Task { await puller.waitUntilEnded(); once.resume() }
            if let duration { Task { try? await Task.sleep(for: duration); once.resume() } }
        }
    }
}

/// `--stabilize [--lens FILE] [--lookahead N] [--smoothness S]`: the live stream stabilized from
/// the motion it carries.
struct LiveStabilizeOptions {
    var lensFile: String?
    var lookaheadFrames = 3
    var smoothness = 0.5

    /// The options of a command line; nil without `--stabilize`.
    static func parse(_ arguments: inout Arguments) throws -> LiveStabilizeOptions? {
        let wanted = arguments.flag("--stabilize")
        var options = LiveStabilizeOptions()
        options.lensFile = try arguments.option("--lens")
        if let frames: Int = try arguments.number("--lookahead") {
            guard (0...30).contains(frames) else { throw CommandFailure.usage("--lookahead takes 0 to 30 frames") }
            options.lookaheadFrames = frames
        }
        if let smoothness: Double = try arguments.number("--smoothness") {
            guard (0...1).contains(smoothness) else { throw CommandFailure.usage("--smoothness takes 0 to 1") }
            options.smoothness = smoothness
        }
        guard wanted else {
            guard options.lensFile == nil else { throw CommandFailure.usage("--lens needs --stabilize") }
            return nil
        }
        return options
    }

    /// The help lines the live commands share.
    static let help = """
          --stabilize          stabilize the stream from the motion it carries (gyro EIS, the file
                               stabilizer's model with a look-ahead; re-encoded with libx264)
          --lens FILE          the camera's lens profile (default: the device's, else the glasses')
          --lookahead N        frames of motion past each frame before it is corrected (default 3)
          --smoothness S       0–1, how still the picture is kept (default 0.5)
        """

    /// The stabilizer over `source` for `stream`: the lens from --lens, else the device's, else
    /// the glasses' built-in profile.
    func stabilizer(over source: any LiveStreamSource, stream: LiveDeviceStream) async throws -> LiveStreamStabilizer {
        var lens = LensProfile.aibudsGlasses
        if let lensFile {
            lens = try LensProfileParser.parse(contentsOf: URL(fileURLWithPath: lensFile))
        } else if let device = stream.device as? SMPDevice, let data = try? await device.cameraLensProfile(),
            let profile = try? LensProfileParser.parse(data)
        {
            lens = profile
        }
        let configuration = LiveStreamStabilizer.Configuration(
            stabilization: StabilizationSettings(smoothing: .adaptive(smoothness: smoothness)), lookaheadFrames: lookaheadFrames,
            framesPerSecond: max(1, stream.status.framesPerSecond), bitrateKbps: max(1_000, stream.status.bitrateKbps ?? 2_000))
        return LiveStreamStabilizer(from: source, lens: lens, configuration: configuration)
    }

    /// One line of what the stabilizer did.
    static func summary(_ stabilizer: LiveStreamStabilizer) -> String {
        let stats = stabilizer.statistics
        func ms(_ value: Int64?) -> String { value.map { String(format: "%.1f", Double($0) / 1000) } ?? "-" }
        return "stabilized \(stats.stabilized) of \(stats.received) frames (\(stats.dropped) dropped, \(stats.uncorrected) uncorrected, \(stats.missing) missing upstream);"
            + " added latency p50 \(ms(stats.addedLatencyP50)) ms, p95 \(ms(stats.addedLatencyP95)) ms;"
            + " capture to stabilized p50 \(ms(stats.captureLatencyP50)) ms, p95 \(ms(stats.captureLatencyP95)) ms"
    }
}

/// Resumes a continuation once, whoever comes first.
private final class FirstOf: Sendable {
    private let continuation: Locked<CheckedContinuation<Void, Never>?>

    init(_ continuation: CheckedContinuation<Void, Never>) { self.continuation = Locked(continuation) }

    func resume() {
        continuation.withLock { value in
            defer { value = nil }
            return value
        }?.resume()
    }
}
