/// Something that delivers a live stream's packets, decoded frames and connection events to
/// handlers: a ``LiveStreamPuller`` (the device's stream) or a ``LiveStreamStabilizer`` (the
/// stabilized stream). Recorders, pushers, viewers and frame files take either.
public protocol LiveStreamSource: AnyObject, Sendable {
    /// Calls `handler` with every decoded frame, on the source's thread (keep it short).
    func onFrame(_ handler: @escaping @Sendable (LiveFrame) -> Void)
    /// Calls `handler` with every compressed packet, on the source's thread.
    func onPacket(_ handler: @escaping @Sendable (LivePacket) -> Void)
    /// Calls `handler` with every connection event, on the source's thread.
    func onEvent(_ handler: @escaping @Sendable (LiveStreamEvent) -> Void)
}

extension LiveStreamPuller: LiveStreamSource {}
