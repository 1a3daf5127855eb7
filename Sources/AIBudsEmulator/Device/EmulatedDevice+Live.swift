import AIBudsCBOR
import AIBudsWire

/// The camera's live stream (docs/protocol.md §3, "Live group"): start, stop and state, with the
/// `liveStream` and `workState` events. The serving itself is the ``LiveStreamService`` the
/// emulator was given.
extension EmulatedDevice {
    /// Whether this device can stream live (a camera and a live stream service).
    public var canStreamLive: Bool { liveStream != nil }

    private func requireLiveStream() throws(EmulatorError) -> any LiveStreamService {
        guard let liveStream else {
            throw EmulatorError(.notSupported, "the \(profile.kind.rawValue) profile has no live stream here")
        }
        return liveStream
    }

    /// The Live `state`: whether the camera streams, where, and what it offers.
    public func liveState() throws(EmulatorError) -> LiveStateResponse {
        let service = try requireLiveStream()
        return try withLiveState { live throws(EmulatorError) in live } ?? Self.idleState(service.offer)
    }

    /// Starts the stream a Live `start` asks for; returns its state with the URL. Busy (rc 5) while
    /// it streams or records video already; a size, rate or bit rate the camera does not offer is
    /// `invalidArgument` (rc 6).
    public func startLiveStream(_ request: LiveStartRequest) throws(EmulatorError) -> LiveStateResponse {
        let service = try requireLiveStream()
        let settings = try service.offer.settings(for: request)
        try withLiveState { live throws(EmulatorError) in
            guard live == nil else { throw EmulatorError(.busy, "the camera streams already") }
        }
        guard !isRecording else { throw EmulatorError(.busy, "the device is recording") }
        let url: String
        do {
            url = try service.start(settings) { [weak self] in self?.liveStreamEnded() }
        } catch let error as EmulatorError {
            throw error
        } catch {
            throw EmulatorError(.io, "the live stream cannot start", underlying: error)
        }
        let offer = service.offer
        let started = LiveStateResponse(
            streaming: true, format: settings.format.rawValue, url: url, width: UInt64(settings.width),
            height: UInt64(settings.height), fps: UInt64(settings.fps),
            bitrateKbps: settings.format == .rtsp ? UInt64(settings.bitrateKbps) : nil, sizes: offer.sizeNames,
            maxFps: UInt64(offer.maxFps), bitrateMin: UInt64(offer.bitrates.lowerBound),
            bitrateMax: UInt64(offer.bitrates.upperBound))
        try withLiveState { live throws(EmulatorError) in live = started }
        return started
    }

    /// Ends the stream and disconnects its viewers (Live `stop`, or the device deciding to: tests
    /// and scripts call it for "the device stopped streaming"); `badState` (rc 7) when it does not
    /// stream.
    public func stopLiveStream() throws(EmulatorError) {
        let service = try requireLiveStream()
        try withLiveState { live throws(EmulatorError) in
            guard live != nil else { throw EmulatorError(.badState, "the camera does not stream") }
            live = nil
        }
        service.stop()
    }

    private func liveStreamEnded() {
        _ = try? withLiveState { live throws(EmulatorError) in live = nil }
    }

    static func idleState(_ offer: LiveStreamOffer) -> LiveStateResponse {
        LiveStateResponse(
            streaming: false, sizes: offer.sizeNames, maxFps: UInt64(offer.maxFps),
            bitrateMin: UInt64(offer.bitrates.lowerBound), bitrateMax: UInt64(offer.bitrates.upperBound))
    }

    /// The `liveStream` event's value: the state's map (`{streaming: false}` alone once stopped).
    func liveStateMap(_ live: LiveStateResponse?) -> CBOR {
        guard let live, let map = try? CBOREncoder().encodeValue(live) else { return ["streaming": .bool(false)] }
        return map
    }
}
