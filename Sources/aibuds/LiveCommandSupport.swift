import AIBuds
import AIBudsEmulator
import AIBudsLiveStream
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
        let device = try await DeviceCommandSupport.connect(found, naming: spec)
        guard let live = device as? any LiveStreamingAPI else {
            await device.disconnectAndWait()
            throw CommandFailure.failure("\(spec) has no camera that streams live")
        }
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
