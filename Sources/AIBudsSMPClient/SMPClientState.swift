import AIBudsCBOR
import AIBudsWire
import Foundation

/// The bookkeeping of an `SMPClient`: window slots, sequence numbers and requests in flight.
///
/// Pure state: every method runs under the client's lock and returns what must be resumed,
/// fulfilled or cancelled, which the client does after releasing the lock. A request holds a window
/// slot from `acquireSlot` until it leaves the in-flight table (answered, timed out, cancelled,
/// failed) or fails to register.
struct SMPClientState {
    /// Resumed once when a window slot is granted (nil) or the wait fails.
    typealias SlotGrant = CheckedContinuation<SMPError?, Never>

    /// A request waiting for its response.
    struct InFlight {
        var id: UInt64
        var group: UInt16
        var command: UInt8
        var operation: SMPOperation
        var datagram: Data
        var label: String
        var promise: SMPReplyPromise
        var timer: Task<Void, Never>?
    }

    /// A request that left the table, with the slot waiter that inherits its window slot.
    struct Departure {
        var request: InFlight
        var nextInLine: SlotGrant?
    }

    /// What became of a request asking to be registered.
    enum Registration {
        /// Registered: send this datagram.
        case registered(Data)
        /// Refused; its slot went to `nextInLine` (to resume), if anyone waits.
        case refused(SMPError, nextInLine: SlotGrant?)
    }

    /// What became of a request asking for a window slot.
    enum SlotDecision {
        /// The slot is taken; go on.
        case granted
        /// All slots are busy; the grant is queued and resumed when one frees.
        case queued
        /// The request cannot proceed.
        case failed(SMPError)
    }

    var version: SMPVersion
    var mtu: Int
    /// Whether `mtu` is known to suit the device (configured, or set from its buffer size).
    var mtuKnown = false
    let window: Int
    private(set) var closedError: SMPError?
    private var nextID: UInt64 = 0
    private var nextSequence: UInt8 = 0
    private(set) var inFlight: [UInt8: InFlight] = [:]
    private(set) var activeSlots = 0
    private var slotWaiters: [(id: UInt64, grant: SlotGrant)] = []

    init(version: SMPVersion, mtu: Int, window: Int) {
        self.version = version
        self.mtu = mtu
        self.window = window
    }

    /// A fresh request id (ids, unlike sequence numbers, are never reused).
    mutating func makeID() -> UInt64 {
        nextID += 1
        return nextID
    }

    // MARK: Window slots

    /// Takes a slot now, or queues `grant` to be resumed when one frees.
    mutating func acquireSlot(id: UInt64, grant: SlotGrant) -> SlotDecision {
        if let closedError { return .failed(closedError) }
        if activeSlots < window {
            activeSlots += 1
            return .granted
        }
        slotWaiters.append((id, grant))
        return .queued
    }

    /// Frees a slot; returns the waiter that now owns it, to resume.
    mutating func releaseSlot() -> SlotGrant? {
        guard !slotWaiters.isEmpty else {
            activeSlots -= 1
            return nil
        }
        return slotWaiters.removeFirst().grant
    }

    /// Removes a cancelled slot waiter; returns it to resume with `cancelled`, or nil when it
    /// already has its slot (the request then notices the cancellation itself).
    mutating func cancelSlotWait(id: UInt64) -> SlotGrant? {
        guard let index = slotWaiters.firstIndex(where: { $0.id == id }) else { return nil }
        return slotWaiters.remove(at: index).grant
    }

    // MARK: Requests in flight

    /// Registers a request (which holds a slot) under a free sequence number and returns its
    /// datagram; on failure the slot is released and the next waiter returned.
    mutating func register(
        id: UInt64, group: UInt16, command: UInt8, operation: SMPOperation, payload: Data,
        version: SMPVersion, label: String, promise: SMPReplyPromise
    ) -> Registration {
        if let closedError { return .refused(closedError, nextInLine: releaseSlot()) }
        var sequence = nextSequence
        while inFlight[sequence] != nil { sequence &+= 1 }  // at most `window` (< 256) are taken
        let packet = SMPPacket(operation: operation, version: version, group: group, sequence: sequence,
                               command: command, payload: payload)
        let datagram = packet.encoded()
        guard datagram.count <= mtu else {
            let error = SMPError(.invalidRequest, "\(label) is \(datagram.count) bytes, more than the MTU of \(mtu)")
            return .refused(error, nextInLine: releaseSlot())
        }
        nextSequence = sequence &+ 1
        inFlight[sequence] = InFlight(id: id, group: group, command: command, operation: operation,
                                      datagram: datagram, label: label, promise: promise)
        return .registered(datagram)
    }

    /// Stores the retransmission timer of a request; returns it back when the request already
    /// finished (the caller cancels it).
    mutating func attach(timer: Task<Void, Never>, to id: UInt64) -> Task<Void, Never>? {
        guard let sequence = sequence(of: id) else { return timer }
        inFlight[sequence]?.timer = timer
        return nil
    }

    /// The datagram to send again for request `id`, if it is still in flight.
    func datagram(of id: UInt64) -> (Data, String)? {
        guard let sequence = sequence(of: id), let request = inFlight[sequence] else { return nil }
        return (request.datagram, request.label)
    }

    /// Removes request `id` (timed out, cancelled, failed to send); nil if it already finished.
    mutating func remove(id: UInt64) -> Departure? {
        guard let sequence = sequence(of: id), let request = inFlight.removeValue(forKey: sequence) else { return nil }
        return Departure(request: request, nextInLine: releaseSlot())
    }

    /// Removes and returns the request a response header answers, or nil when none does (late,
    /// duplicate, or unknown).
    mutating func match(_ header: SMPHeader) -> Departure? {
        guard header.operation.isResponse, let request = inFlight[header.sequence],
            request.group == header.group, request.command == header.command,
            request.operation.response == header.operation
        else { return nil }
        inFlight.removeValue(forKey: header.sequence)
        return Departure(request: request, nextInLine: releaseSlot())
    }

    /// Closes the client: returns every request in flight and every slot waiter, to fail.
    mutating func close(with error: SMPError) -> ([InFlight], [SlotGrant]) {
        guard closedError == nil else { return ([], []) }
        closedError = error
        let requests = Array(inFlight.values)
        let waiters = slotWaiters.map(\.grant)
        inFlight.removeAll()
        slotWaiters.removeAll()
        return (requests, waiters)
    }

    private func sequence(of id: UInt64) -> UInt8? {
        inFlight.first { $0.value.id == id }?.key
    }
}

/// A response as the client received it: its header and its payload map, or (for a response
/// read straight from its bytes, `PlainPayloadDecodable`) the response itself and an empty map.
struct SMPReply: Sendable {
    var header: SMPHeader
    var payload: CBOR
    var decoded: (any Sendable)?
}
