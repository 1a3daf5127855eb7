import Foundation

extension DeviceCapability {
    /// `LiveStreamingAPI`: the camera streams live (RTSP or multipart JPEG).
    public static let liveStreaming: DeviceCapability = "liveStreaming"
}

/// The two kinds of live stream a device camera serves.
public enum LiveStreamKind: String, Sendable, CaseIterable {
    /// H.264 over RTP from the device's RTSP server (`rtsp://…`), TCP or UDP transport.
    case rtsp
    /// JPEG frames as one multipart HTTP response (`http://…/live.mjpeg`).
    case jpeg
}

/// What an app asks the camera to stream; a value left nil is the device's default.
public struct LiveStreamOptions: Sendable, Equatable {
    /// Frame width in pixels (with ``height``, one of ``LiveStreamStatus/availableSizes``).
    public var width: Int?
    /// Frame height in pixels.
    public var height: Int?
    /// Frames per second, 1 to ``LiveStreamStatus/maxFramesPerSecond``.
    public var framesPerSecond: Int?
    /// The H.264 bit rate in kbit/s (RTSP), within ``LiveStreamStatus/bitrateRangeKbps``.
    public var bitrateKbps: Int?

    /// Creates options; every value left nil is the device's default.
    public init(width: Int? = nil, height: Int? = nil, framesPerSecond: Int? = nil, bitrateKbps: Int? = nil) {
        self.width = width
        self.height = height
        self.framesPerSecond = framesPerSecond
        self.bitrateKbps = bitrateKbps
    }
}

/// The camera's live stream as the device reports it: whether it streams, where, and what it
/// offers.
public final class LiveStreamStatus: Sendable, CustomStringConvertible {
    /// Whether the camera streams now.
    public let isStreaming: Bool
    /// RTSP or JPEG while streaming.
    public let kind: LiveStreamKind?
    /// Where a viewer reads the stream while streaming.
    public let url: URL?
    /// The frame width while streaming (0 otherwise).
    public let width: Int
    /// The frame height while streaming (0 otherwise).
    public let height: Int
    /// Frames per second while streaming (0 otherwise).
    public let framesPerSecond: Int
    /// The H.264 bit rate in kbit/s while streaming RTSP.
    public let bitrateKbps: Int?
    /// The frame sizes the camera offers, width × height.
    public let availableSizes: [LiveStreamSize]
    /// The highest frame rate the camera offers.
    public let maxFramesPerSecond: Int
    /// The H.264 bit rates the camera offers, kbit/s.
    public let bitrateRangeKbps: ClosedRange<Int>

    /// Creates a status as a device plugin reports it.
    public init(isStreaming: Bool, kind: LiveStreamKind?, url: URL?, width: Int, height: Int, framesPerSecond: Int,
                bitrateKbps: Int?, availableSizes: [LiveStreamSize], maxFramesPerSecond: Int,
                bitrateRangeKbps: ClosedRange<Int>) {
        self.isStreaming = isStreaming
        self.kind = kind
        self.url = url
        self.width = width
        self.height = height
        self.framesPerSecond = framesPerSecond
        self.bitrateKbps = bitrateKbps
        self.availableSizes = availableSizes
        self.maxFramesPerSecond = maxFramesPerSecond
        self.bitrateRangeKbps = bitrateRangeKbps
    }

    /// `rtsp 640x360@30 2000 kbit/s rtsp://…`, or `not streaming`.
    public var description: String {
        guard isStreaming, let kind, let url else { return "not streaming" }
        let rate = bitrateKbps.map { " \($0) kbit/s" } ?? ""
        return "\(kind.rawValue) \(width)x\(height)@\(framesPerSecond)\(rate) \(url.absoluteString)"
    }
}

/// A frame size a camera offers.
public struct LiveStreamSize: Sendable, Hashable, CustomStringConvertible {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// Creates a size of `width` × `height` pixels.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// Reads `WxH` (`640x360`); nil for anything else.
    public init?(_ text: String) {
        let parts = text.split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0 else {
            return nil
        }
        self.init(width: width, height: height)
    }

    /// `WxH`.
    public var description: String { "\(width)x\(height)" }
}
