import AIBudsSync

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

/// The frame, packet and event handlers of one source (the puller's, the stabilizer's); safe to
/// add to from any thread while the source calls them on its own.
final class LiveStreamHandlers: Sendable {
    private struct Lists {
        var frames: [@Sendable (LiveFrame) -> Void] = []
        var packets: [@Sendable (LivePacket) -> Void] = []
        var events: [@Sendable (LiveStreamEvent) -> Void] = []
    }

    private let lists = Locked(Lists())

    func add(frame handler: @escaping @Sendable (LiveFrame) -> Void) { lists.withLock { $0.frames.append(handler) } }
    func add(packet handler: @escaping @Sendable (LivePacket) -> Void) { lists.withLock { $0.packets.append(handler) } }
    func add(event handler: @escaping @Sendable (LiveStreamEvent) -> Void) { lists.withLock { $0.events.append(handler) } }

    /// Whether any frame handler is registered (a source skips building frames nobody takes).
    var wantsFrames: Bool { lists.withLock { !$0.frames.isEmpty } }

    func emit(_ event: LiveStreamEvent) {
        for handler in lists.withLock({ $0.events }) { handler(event) }
    }

    func emit(_ packets: [LivePacket]) {
        let handlers = lists.withLock { $0.packets }
        for packet in packets { for handler in handlers { handler(packet) } }
    }

    func emit(_ frames: [LiveFrame]) {
        let handlers = lists.withLock { $0.frames }
        for frame in frames { for handler in handlers { handler(frame) } }
    }
}
