import AIBudsWire

/// The two kinds of live stream a camera serves.
public enum LiveStreamFormat: String, Sendable, CaseIterable {
    /// H.264 over RTP, offered by an RTSP server (TCP and UDP transports).
    case rtsp
    /// JPEG frames as one `multipart/x-mixed-replace` HTTP response.
    case jpeg
}

/// What a viewer asked the camera to stream, checked against its ``LiveStreamOffer``.
public struct LiveStreamSettings: Sendable, Equatable {
    /// RTSP or JPEG.
    public var format: LiveStreamFormat
    /// Frame width in pixels.
    public var width: Int
    /// Frame height in pixels.
    public var height: Int
    /// Frames per second.
    public var fps: Int
    /// The H.264 bit rate in kbit/s (RTSP; JPEG ignores it).
    public var bitrateKbps: Int

    /// Settings as given, unchecked: ``LiveStreamOffer/settings(for:)`` is what checks a request.
    public init(format: LiveStreamFormat, width: Int, height: Int, fps: Int, bitrateKbps: Int) {
        self.format = format
        self.width = width
        self.height = height
        self.fps = fps
        self.bitrateKbps = bitrateKbps
    }
}

/// The frame sizes, rates and bit rates a camera offers, and its defaults.
public struct LiveStreamOffer: Sendable, Equatable {
    /// The frame sizes, width × height, the first one the default.
    public var sizes: [(width: Int, height: Int)]
    /// The highest frame rate (1 is the lowest).
    public var maxFps: Int
    /// The frame rate when none is asked for.
    public var defaultFps: Int
    /// The lowest and highest H.264 bit rate, kbit/s.
    public var bitrates: ClosedRange<Int>
    /// The bit rate when none is asked for.
    public var defaultBitrateKbps: Int

    /// An offer whose first size is the default; `defaultFps` and `defaultBitrateKbps` must lie
    /// within `maxFps` and `bitrates`.
    public init(sizes: [(width: Int, height: Int)], maxFps: Int, defaultFps: Int, bitrates: ClosedRange<Int>,
                defaultBitrateKbps: Int) {
        self.sizes = sizes
        self.maxFps = maxFps
        self.defaultFps = defaultFps
        self.bitrates = bitrates
        self.defaultBitrateKbps = defaultBitrateKbps
    }

    /// Compares the sizes pairwise (tuples are not `Equatable`).
    public static func == (lhs: LiveStreamOffer, rhs: LiveStreamOffer) -> Bool {
        lhs.sizes.map { [$0.width, $0.height] } == rhs.sizes.map { [$0.width, $0.height] } && lhs.maxFps == rhs.maxFps
            && lhs.defaultFps == rhs.defaultFps && lhs.bitrates == rhs.bitrates
            && lhs.defaultBitrateKbps == rhs.defaultBitrateKbps
    }

    /// The settings a Live `start` request asks for, defaults filled in; an `invalidArgument`
    /// error names a value the camera does not offer.
    public func settings(for request: LiveStartRequest) throws(EmulatorError) -> LiveStreamSettings {
        guard let format = LiveStreamFormat(rawValue: request.format) else {
            throw EmulatorError(.invalidArgument, "format must be rtsp or jpeg, not '\(request.format)'")
        }
        var size = sizes[0]
        if request.width != nil || request.height != nil {
            guard let match = sizes.first(where: { UInt64($0.width) == request.width && UInt64($0.height) == request.height })
            else { throw EmulatorError(.invalidArgument, "the camera offers \(sizeNames.joined(separator: ", ")) only") }
            size = match
        }
        let fps = request.fps.map { Int(clamping: $0) } ?? defaultFps
        guard (1...maxFps).contains(fps) else { throw EmulatorError(.invalidArgument, "fps must be 1 to \(maxFps)") }
        let bitrate = request.bitrateKbps.map { Int(clamping: $0) } ?? defaultBitrateKbps
        guard bitrates.contains(bitrate) else {
            throw EmulatorError(.invalidArgument, "the bit rate must be \(bitrates.lowerBound) to \(bitrates.upperBound) kbit/s")
        }
        return LiveStreamSettings(format: format, width: size.width, height: size.height, fps: fps, bitrateKbps: bitrate)
    }

    /// The sizes as `WxH`.
    public var sizeNames: [String] { sizes.map { "\($0.width)x\($0.height)" } }
}

/// The camera's live stream server, as the emulated device drives it: Live `start` starts it, Live
/// `stop` (or the device ending the session) stops it. Module AIBudsLiveCamera implements it with a
/// rendered scene, FFmpeg's encoders and GStreamer's RTSP server; the device only knows this.
public protocol LiveStreamService: AnyObject, Sendable {
    /// What the camera offers.
    var offer: LiveStreamOffer { get }
    /// Starts serving `settings`; returns the URL viewers read. `ended` is called (once, on any
    /// thread) if the stream ends by itself, not after ``stop()``.
    func start(_ settings: LiveStreamSettings, ended: @escaping @Sendable () -> Void) throws -> String
    /// Stops serving and disconnects every viewer. Idempotent.
    func stop()
}
