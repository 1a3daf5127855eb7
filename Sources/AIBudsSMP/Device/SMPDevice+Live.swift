import AIBuds
import AIBudsFoundation
import AIBudsWire
import Foundation

/// `LiveStreamingAPI` over the Live group (docs/protocol.md §3): start, stop and state; the device
/// reports the work state `streaming` while it streams.
extension SMPDevice {
    /// Starts an RTSP stream of the device's default size, rate and bit rate.
    public func startRtspLiveStreaming() async throws -> URL {
        try Self.url(of: try await startLiveStreaming(.rtsp, options: LiveStreamOptions()))
    }

    /// Starts a multipart JPEG stream of the device's default size and rate.
    public func startJpegLiveStreaming() async throws -> URL {
        try Self.url(of: try await startLiveStreaming(.jpeg, options: LiveStreamOptions()))
    }

    /// Sends Live `stop`; the device answers rc 7 (3002) when it does not stream.
    public func stopLiveStreaming() async throws {
        _ = try await run(.liveStreaming) { try await $0.request(LiveStopRequest()) }
    }

    /// Sends Live `start` with `options`; negative values are refused here (3001).
    public func startLiveStreaming(_ kind: LiveStreamKind, options: LiveStreamOptions) async throws -> LiveStreamStatus {
        func value(_ number: Int?, _ what: String) throws -> UInt64? {
            try number.map { try Self.nonNegative($0, what) }
        }
        let request = LiveStartRequest(
            format: kind.rawValue, width: try value(options.width, "a width"), height: try value(options.height, "a height"),
            fps: try value(options.framesPerSecond, "a frame rate"), bitrateKbps: try value(options.bitrateKbps, "a bit rate"))
        let response = try await run(.liveStreaming) { try await $0.request(request) }
        return try Self.status(response)
    }

    /// Sends Live `state`.
    public func requestQueryLiveStreamStatus() async throws -> LiveStreamStatus {
        try Self.status(try await run(.liveStreaming) { try await $0.request(LiveStateRequest()) })
    }

    private static func url(of status: LiveStreamStatus) throws -> URL {
        guard let url = status.url else {
            throw AIBudsError(.operationFailedDueToDeviceResponseDataParsingFailed, "the device started no stream")
        }
        return url
    }

    /// The SDK's status from the device's answer; a stream without a URL it can parse, or an
    /// unknown format, is a parsing failure (3003).
    static func status(_ response: LiveStateResponse) throws -> LiveStreamStatus {
        let failure = { (what: String) in
            AIBudsError(.operationFailedDueToDeviceResponseDataParsingFailed, "the device's live stream state \(what)")
        }
        var kind: LiveStreamKind?
        var url: URL?
        if response.streaming {
            guard let format = response.format, let parsed = LiveStreamKind(rawValue: format) else {
                throw failure("has no known format")
            }
            guard let text = response.url, let parsedURL = URL(string: text), parsedURL.host != nil else {
                throw failure("has no URL")
            }
            kind = parsed
            url = parsedURL
        }
        guard response.bitrateMin <= response.bitrateMax else { throw failure("has an empty bit rate range") }
        func int(_ value: UInt64?) -> Int { Int(clamping: value ?? 0) }
        return LiveStreamStatus(
            isStreaming: response.streaming, kind: kind, url: url, width: int(response.width), height: int(response.height),
            framesPerSecond: int(response.fps), bitrateKbps: response.bitrateKbps.map { Int(clamping: $0) },
            availableSizes: response.sizes.compactMap(LiveStreamSize.init), maxFramesPerSecond: int(response.maxFps),
            bitrateRangeKbps: int(response.bitrateMin)...int(response.bitrateMax))
    }
}
