import AIBudsSync

/// Something that delivers a live stream's packets, decoded frames and connection events to
/// handlers: a ``LiveStreamPuller`` (the device's stream) or a ``LiveStreamStabilizer`` (the
/// stabilized stream). Recorders, pushers, viewers and frame files take either.
public protocol LiveStreamSource: AnyObject, Sendable {
    /// The handlers registered with the source; ``onFrame(_:)``, ``onPacket(_:)`` and
    /// ``onEvent(_:)`` add to them.
    var handlers: LiveStreamHandlers { get }
}

extension LiveStreamSource {
    /// Calls `handler` with every decoded frame, on the source's thread (keep it short).
    public func onFrame(_ handler: @escaping @Sendable (LiveFrame) -> Void) {
        handlers.lists.withLock { $0.frames.append(handler) }
    }

    /// Calls `handler` with every compressed packet, on the source's thread.
    public func onPacket(_ handler: @escaping @Sendable (LivePacket) -> Void) {
        handlers.lists.withLock { $0.packets.append(handler) }
    }

    /// Calls `handler` with every connection event, on the source's thread.
    public func onEvent(_ handler: @escaping @Sendable (LiveStreamEvent) -> Void) {
        handlers.lists.withLock { $0.events.append(handler) }
    }
}

/// The frame, packet and event handlers of one ``LiveStreamSource``; safe to add to from any
/// thread while the source calls them on its own.
public final class LiveStreamHandlers: Sendable {
    struct Lists {
        var frames: [@Sendable (LiveFrame) -> Void] = []
        var packets: [@Sendable (LivePacket) -> Void] = []
        var events: [@Sendable (LiveStreamEvent) -> Void] = []
    }

    let lists = Locked(Lists())

    /// Creates empty lists, for a source of one's own (a puller or stabilizer makes its own).
    public init() {}

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

extension LiveStreamPuller: LiveStreamSource {}
