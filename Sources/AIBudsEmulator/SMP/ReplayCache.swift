import AIBudsWire
import Foundation

/// The last responses per client address and sequence number, so that a retransmitted request
/// (same peer, sequence, group, command, operation, version and payload) gets the same answer
/// without being executed again (docs/protocol.md §1).
///
/// Each peer keeps its last 128 requests (half the sequence space, so a sequence number reused
/// after wrapping around is a new request); at most 256 peers are remembered.
struct ReplayCache {
    static let entriesPerPeer = 128
    static let maxPeers = 256

    /// What identifies a retransmission.
    struct Request: Equatable {
        var header: SMPHeader
        var payload: Data
    }

    /// A remembered request and, once it has been answered, its responses.
    enum Lookup: Equatable {
        /// Never seen (or forgotten): execute it.
        case new
        /// Seen and still being answered (a held long-poll): drop the retransmission.
        case pending
        /// Seen and answered: send these again.
        case answered([Data])
    }

    private struct Entry {
        var request: Request
        var responses: [Data]?
    }

    private struct PeerEntries {
        var entries: [UInt8: Entry] = [:]
        var order: [UInt8] = []
        var lastUse: UInt64 = 0
    }

    private var peers: [EmulatorPeer: PeerEntries] = [:]
    private var clock: UInt64 = 0

    /// Looks `request` up; a new request is remembered as pending.
    mutating func begin(_ request: Request, from peer: EmulatorPeer) -> Lookup {
        clock += 1
        var entries = peers[peer] ?? PeerEntries()
        entries.lastUse = clock
        let sequence = request.header.sequence
        if let entry = entries.entries[sequence], entry.request == request {
            peers[peer] = entries
            return entry.responses.map { .answered($0) } ?? .pending
        }
        if entries.entries.updateValue(Entry(request: request, responses: nil), forKey: sequence) != nil {
            entries.order.removeAll { $0 == sequence }
        }
        entries.order.append(sequence)
        if entries.order.count > Self.entriesPerPeer {
            entries.entries[entries.order.removeFirst()] = nil
        }
        peers[peer] = entries
        if peers.count > Self.maxPeers, let stale = peers.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
            peers[stale] = nil
        }
        return .new
    }

    /// Records the responses to a request that `begin` reported as new.
    mutating func finish(_ request: Request, from peer: EmulatorPeer, responses: [Data]) {
        guard var entries = peers[peer], let entry = entries.entries[request.header.sequence],
            entry.request == request
        else { return }
        entries.entries[request.header.sequence]?.responses = responses
        peers[peer] = entries
    }

    /// Forgets a request (one that was dropped, so that a retransmission is executed).
    mutating func forget(_ request: Request, from peer: EmulatorPeer) {
        guard var entries = peers[peer], entries.entries[request.header.sequence]?.request == request else { return }
        entries.entries[request.header.sequence] = nil
        entries.order.removeAll { $0 == request.header.sequence }
        peers[peer] = entries
    }

    /// Forgets everything about `peer`.
    mutating func forget(peer: EmulatorPeer) { peers[peer] = nil }
}
