import AIBudsWire
import Foundation

/// The bookkeeping of an `SMPClient`: window slots, sequence numbers and requests in flight.
///
/// Pure state: every method runs under the client's lock and returns the continuations to resume
/// (and timers to cancel), which the client does after releasing the lock.
struct SMPClientState {
    /// Resumed once with the outcome of one transmission of a request.
    typealias Completion = CheckedContinuation<Result<SMPReply, SMPError>, Never>
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
        var completion: Completion
        var timer: Task<Void, Never>?
    }

    /// Whether the client still accepts requests.
    enum Lifecycle {
        case open
        case closed(SMPError)
    }

    var lifecycle = Lifecycle.open
    var version: SMPVersion
    var mtu: Int
    let window: Int
    private var nextID: UInt64 = 0
    private var nextSequence: UInt8 = 0
    private(set) var inFlight: [UInt8: InFlight] = [:]
    private(set) var activeSlots = 0
    private var slotWaiters: [(id: UInt64, grant: SlotGrant)] = []
    /// Ids of requests whose task was cancelled before they registered their continuation.
    private var cancelledEarly: Set<UInt64> = []

    init(version: SMPVersion, mtu: Int, window: Int) {
        self.version = version
        self.mtu = mtu
        self.window = window
    }

    /// The error every new request fails with, when the client is closed.
    var closedError: SMPError? {
        if case .closed(let error) = lifecycle { return error }
        return nil
    }

    /// A fresh request id (ids, unlike sequence numbers, are never reused).
    mutating func makeID() -> UInt64 {
        nextID += 1
        return nextID
    }

    // MARK: Window slots

    /// What became of a request asking for a window slot.
    enum SlotDecision {
        /// The slot is taken; go on.
        case granted
        /// All slots are busy; the grant is queued and resumed when one frees.
        case queued
        /// The request cannot proceed.
        case failed(SMPError)
    }

    /// Takes a slot now, or queues `grant` to be resumed when one frees.
    mutating func acquireSlot(id: UInt64, grant: SlotGrant) -> SlotDecision {
        if let error = closedError { return .failed(error) }
        if cancelledEarly.remove(id) != nil { return .failed(SMPError(.cancelled, "cancelled while waiting for a window slot")) }
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

    /// Removes a cancelled slot waiter; returns it to resume with `cancelled`, or nil if it already
    /// has its slot (then the request itself notices the cancellation).
    mutating func cancelSlotWait(id: UInt64) -> SlotGrant? {
        guard let index = slotWaiters.firstIndex(where: { $0.id == id }) else {
            cancelledEarly.insert(id)
            return nil
        }
        return slotWaiters.remove(at: index).grant
    }

    /// Forgets an early cancellation mark that nothing consumed.
    mutating func forgetCancellation(id: UInt64) {
        cancelledEarly.remove(id)
    }

    // MARK: Requests in flight

    /// Registers a request under a free sequence number and returns its datagram; or the error it
    /// fails with at once.
    mutating func register(
        id: UInt64, group: UInt16, command: UInt8, operation: SMPOperation, payload: Data,
        version: SMPVersion, label: String, completion: Completion
    ) -> Result<Data, SMPError> {
        if let error = closedError { return .failure(error) }
        if cancelledEarly.remove(id) != nil { return .failure(SMPError(.cancelled, "\(label) was cancelled")) }
        var sequence = nextSequence
        while inFlight[sequence] != nil { sequence &+= 1 }  // at most `window` (< 256) are taken
        nextSequence = sequence &+ 1
        let packet = SMPPacket(operation: operation, version: version, group: group, sequence: sequence,
                               command: command, payload: payload)
        let datagram = packet.encoded()
        guard datagram.count <= mtu else {
            return .failure(SMPError(.invalidRequest, "\(label) is \(datagram.count) bytes, more than the MTU of \(mtu)"))
        }
        inFlight[sequence] = InFlight(id: id, group: group, command: command, operation: operation,
                                      datagram: datagram, label: label, completion: completion)
        return .success(datagram)
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

    /// Removes request `id` (timed out, failed to send); nil if it already finished.
    mutating func remove(id: UInt64) -> InFlight? {
        guard let sequence = sequence(of: id) else { return nil }
        return inFlight.removeValue(forKey: sequence)
    }

    /// Removes request `id` because its task was cancelled; when it has not registered yet, marks
    /// it so that registering fails.
    mutating func cancel(id: UInt64) -> InFlight? {
        guard let request = remove(id: id) else {
            cancelledEarly.insert(id)
            return nil
        }
        return request
    }

    /// Removes and returns the request a response header answers, or nil when none does (late,
    /// duplicate, or unknown).
    mutating func match(_ header: SMPHeader) -> InFlight? {
        guard header.operation.isResponse, let request = inFlight[header.sequence],
            request.group == header.group, request.command == header.command,
            request.operation.response == header.operation
        else { return nil }
        return inFlight.removeValue(forKey: header.sequence)
    }

    /// Closes the client: returns every request in flight and every slot waiter, to fail.
    mutating func close(with error: SMPError) -> ([InFlight], [SlotGrant]) {
        guard case .open = lifecycle else { return ([], []) }
        lifecycle = .closed(error)
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

/// A response as the client received it: its header and its payload map.
struct SMPReply: Sendable {
    var header: SMPHeader
    var payload: CBOR
}
