import AIBudsNet

/// The connections a server accepted that have not yet sent an authorized request: bounded in
/// all and per peer address, so that they never take the serving slots of authorized clients.
/// When a newcomer would exceed a bound, the oldest waiting connection (of that peer, or of all)
/// is evicted.
struct PendingConnections {
    private struct Entry {
        var connection: TCPConnection
        var peer: String
        var order: UInt64
    }

    private var entries: [ObjectIdentifier: Entry] = [:]
    private var nextOrder: UInt64 = 0

    /// Every waiting connection.
    var all: [TCPConnection] { entries.values.map(\.connection) }

    /// Adds `connection` from `peer`; returns the connection it evicted, if any.
    mutating func add(_ connection: TCPConnection, peer: String, limit: Int, perPeer: Int) -> TCPConnection? {
        var evicted: TCPConnection?
        let samePeer = entries.filter { $0.value.peer == peer }
        if samePeer.count >= perPeer {
            evicted = evictOldest(of: samePeer)
        } else if entries.count >= limit {
            evicted = evictOldest(of: entries)
        }
        nextOrder += 1
        entries[ObjectIdentifier(connection)] = Entry(connection: connection, peer: peer, order: nextOrder)
        return evicted
    }

    /// Removes `connection`; false when it was not waiting (evicted, or never added).
    mutating func remove(_ connection: TCPConnection) -> Bool {
        entries.removeValue(forKey: ObjectIdentifier(connection)) != nil
    }

    private mutating func evictOldest(of candidates: [ObjectIdentifier: Entry]) -> TCPConnection? {
        guard let oldest = candidates.min(by: { $0.value.order < $1.value.order }) else { return nil }
        entries[oldest.key] = nil
        return oldest.value.connection
    }
}
