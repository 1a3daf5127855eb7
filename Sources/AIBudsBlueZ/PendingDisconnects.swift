import AIBudsSync

/// The `Device1.Disconnect` calls of closed links that are still under way, per bus and device.
///
/// Closing a transport cannot wait (``BlueZGATTTransport/close()`` is synchronous), so its
/// `Disconnect` runs in a task of its own; a new link to the same device (an auto-reconnect) waits
/// for it first, so that an old link's `Disconnect` never reaches BlueZ after the new link's
/// `Connect` and ends the new link.
enum PendingDisconnects {
    private struct Entry {
        let id: UInt64
        let task: Task<Void, Never>
    }

    private static let entries = Locked<(next: UInt64, byKey: [String: Entry])>((0, [:]))

    private static func key(bus: String, device: String) -> String { bus + "\u{0}" + device }

    /// Runs `disconnect` after any earlier one of the same device, and remembers it until it ends.
    static func start(bus: String, device: String, _ disconnect: @escaping @Sendable () async -> Void) {
        let key = key(bus: bus, device: device)
        entries.withLock { entries in
            entries.next += 1
            let id = entries.next
            let previous = entries.byKey[key]?.task
            let task = Task {
                await previous?.value
                await disconnect()
                PendingDisconnects.entries.withLock { entries in
                    if entries.byKey[key]?.id == id { entries.byKey[key] = nil }
                }
            }
            entries.byKey[key] = Entry(id: id, task: task)
        }
    }

    /// Waits until every `Disconnect` of this device started so far has been answered; true when
    /// there was one to wait for.
    static func settle(bus: String, device: String) async -> Bool {
        guard let task = entries.withLock({ $0.byKey[key(bus: bus, device: device)]?.task }) else { return false }
        await task.value
        return true
    }
}
