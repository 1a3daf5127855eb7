import AIBudsCBOR
import AIBudsWire

/// The numbered events of a device, keeping the last 64.
struct DeviceEventLog: Sendable {
    /// How many events are kept.
    static let capacity = 64

    private(set) var events: [DeviceEvent] = []
    /// The number of the latest event (0 before the first).
    private(set) var lastSeq: UInt64 = 0

    /// Appends an event.
    mutating func append(_ kind: String, _ value: CBOR) {
        lastSeq += 1
        events.append(DeviceEvent(seq: lastSeq, kind: kind, value: value))
        if events.count > Self.capacity { events.removeFirst(events.count - Self.capacity) }
    }

    /// The events after `since`, or nil when `since` is outside what the log remembers (older
    /// than its first event, or newer than its last: a client of an earlier run).
    func events(since: UInt64) -> [DeviceEvent]? {
        guard since <= lastSeq else { return nil }
        let first = events.first?.seq ?? lastSeq + 1
        guard since + 1 >= first else { return nil }
        return events.filter { $0.seq > since }
    }
}
