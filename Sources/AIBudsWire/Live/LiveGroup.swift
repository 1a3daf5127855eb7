import Foundation

// Messages of the project Live group (72): the camera's live stream. See docs/protocol.md §3.

extension SMPGroupID {
    /// The camera's live stream, RTSP or multipart JPEG (project group).
    public static let live: UInt16 = 72
}

/// Live start: the camera starts streaming in `format` (rc 5 while it streams already).
public struct LiveStartRequest: SMPRequest, Equatable {
    /// The device answers `start` with the stream it started (``LiveStateResponse``).
    public typealias Response = LiveStateResponse

    /// `rtsp` (H.264 over RTP) or `jpeg` (multipart JPEG over HTTP).
    public var format: String
    /// Frame width in pixels; absent: the device's default (one of the state's `sizes`).
    public var width: UInt64?
    /// Frame height in pixels; absent: the device's default.
    public var height: UInt64?
    /// Frames per second, 1 to the state's `max_fps`; absent: the device's default.
    public var fps: UInt64?
    /// The H.264 bit rate in kbit/s (RTSP only), within `bitrate_min`…`bitrate_max`; absent: the
    /// device's default.
    public var bitrateKbps: UInt64?

    /// The wire names of the fields (docs/protocol.md).
    enum CodingKeys: String, CodingKey {
        case format, width, height, fps
        case bitrateKbps = "bitrate_kbps"
    }

    /// Creates the request that starts a stream in `format` with the given size, rate and bit rate
    /// (each left to the device when nil).
    public init(format: String, width: UInt64? = nil, height: UInt64? = nil, fps: UInt64? = nil, bitrateKbps: UInt64? = nil) {
        self.format = format
        self.width = width
        self.height = height
        self.fps = fps
        self.bitrateKbps = bitrateKbps
    }
}

/// Live stop: the camera stops streaming and every viewer is disconnected (rc 7 when it does not
/// stream).
public struct LiveStopRequest: SMPRequest, Equatable {
    /// The device answers `stop` with the empty map.
    public typealias Response = SMPEmptyResponse

    /// Creates the request that ends the stream; its payload is the empty map.
    public init() {}
}

/// Live state: whether the camera streams, where, and what it offers.
public struct LiveStateRequest: SMPRequest, Equatable {
    /// The device answers `state` with ``LiveStateResponse``.
    public typealias Response = LiveStateResponse

    /// Creates the request for the stream's state; its payload is the empty map.
    public init() {}
}

/// The stream's state (the answer to `start` and `state`, and the `liveStream` event's value).
public struct LiveStateResponse: Codable, Sendable, Equatable {
    /// Whether the camera streams now.
    public var streaming: Bool
    /// `rtsp` or `jpeg` while streaming.
    public var format: String?
    /// Where a viewer reads the stream while streaming: `rtsp://HOST:PORT/live` or
    /// `http://HOST:PORT/live.mjpeg`.
    public var url: String?
    /// The frame width while streaming.
    public var width: UInt64?
    /// The frame height while streaming.
    public var height: UInt64?
    /// Frames per second while streaming.
    public var fps: UInt64?
    /// The H.264 bit rate in kbit/s while streaming RTSP.
    public var bitrateKbps: UInt64?
    /// The frame sizes the camera offers, as `WxH`.
    public var sizes: [String]
    /// The highest frame rate the camera offers.
    public var maxFps: UInt64
    /// The lowest H.264 bit rate, kbit/s.
    public var bitrateMin: UInt64
    /// The highest H.264 bit rate, kbit/s.
    public var bitrateMax: UInt64

    /// The wire names of the fields (docs/protocol.md).
    enum CodingKeys: String, CodingKey {
        case streaming, format, url, width, height, fps, sizes
        case bitrateKbps = "bitrate_kbps"
        case maxFps = "max_fps"
        case bitrateMin = "bitrate_min"
        case bitrateMax = "bitrate_max"
    }

    /// Creates a state as the emulator sends it.
    public init(streaming: Bool, format: String? = nil, url: String? = nil, width: UInt64? = nil, height: UInt64? = nil,
                fps: UInt64? = nil, bitrateKbps: UInt64? = nil, sizes: [String], maxFps: UInt64, bitrateMin: UInt64,
                bitrateMax: UInt64) {
        self.streaming = streaming
        self.format = format
        self.url = url
        self.width = width
        self.height = height
        self.fps = fps
        self.bitrateKbps = bitrateKbps
        self.sizes = sizes
        self.maxFps = maxFps
        self.bitrateMin = bitrateMin
        self.bitrateMax = bitrateMax
    }
}

extension DeviceEventKind {
    /// `{streaming, format?, url?, ...}`: the Live group's state (``LiveStateResponse``), after
    /// every start and stop, whoever caused it.
    public static let liveStream = "liveStream"
}
