import AIBudsLog
import AIBudsSync
import AIBudsCBOR
import AIBudsWire
import Foundation

/// The device side of SMP, independent of any transport: one request datagram in, the response
/// datagrams out.
///
/// `handle(_:from:)` answers at once, except a long-poll (Device `events`, Media `changed`) that
/// has nothing to report yet: it is held and answered later through the deferred sink, when the
/// device changes or its wait ends. Malformed datagrams (short header, length mismatch, a
/// response operation, a payload that is not one CBOR map) are dropped; well-formed requests for
/// unknown commands get `rc = 8`. Retransmitted requests are answered from a replay cache, never
/// executed twice. Thread-safe; time comes from the injected clock.
public final class SMPRequestHandler: Sendable {
    /// The device this handler speaks for.
    public let device: EmulatedDevice

    /// A long-poll waiting for something to report.
    enum HeldKind: Sendable, Equatable {
        /// Device `events` since a sequence number.
        case events(since: UInt64)
        /// Media `changed` since a generation.
        case mediaChanged(since: UInt64)
        /// Audio `mic read` of a stream from a sequence number.
        case microphone(stream: UInt64, from: UInt64)
    }

    /// What executing a request gives.
    enum Outcome {
        /// A response payload.
        case reply(any Encodable & Sendable)
        /// An error response.
        case failure(SMPFailure)
        /// Nothing yet: hold the request up to `wait`.
        case hold(HeldKind, wait: Duration)
        /// A response payload, then an action once it is on its way.
        case replyThen(any Encodable & Sendable, after: @Sendable () -> Void)
    }

    private struct HeldRequest {
        var peer: EmulatorPeer
        var request: ReplayCache.Request
        var kind: HeldKind
    }

    private struct State {
        var replay = ReplayCache()
        var held: [UInt64: HeldRequest] = [:]
        var nextHeld: UInt64 = 0
        var sink: (@Sendable (Data, EmulatorPeer) -> Void)?
        var faults: SeededRandom
        var closed = false
    }

    /// The longest a long-poll is held (30 s).
    public static let maxWait = Duration.seconds(30)
    /// How many long-polls are held at once; more are answered at once with nothing new.
    public static let maxHeld = 256
    /// The limits for decoding request payloads: a datagram is at most 64 KiB.
    static let requestLimits = CBORLimits(maxDepth: 16, maxItems: 4096, maxLength: 65_536)

    private let clock: any EmulatorClock
    private let errorRate: Double
    private let refusals: [FaultConfiguration.Refusal]
    private let logger: any LogService
    private let state: Locked<State>
    private let observerKey = Locked<UInt64?>(nil)

    /// Creates the handler that answers SMP requests for `device`.
    ///
    /// - Parameters:
    ///   - device: the emulated device whose requests this handler answers.
    ///   - clock: times held long-polls out (give the device's own clock).
    ///   - errorRate: the probability (0–1) that a request is answered with `EBUSY`
    ///     (`err {group, busy}` for project groups) without being executed, a fault to test clients.
    ///   - refusals: project commands answered with a fixed code, never executed (`--fault refuse`).
    ///   - faultSeed: the seed of those decisions.
    ///   - logger: receives dropped and malformed datagrams, replays and encoding failures.
    public init(device: EmulatedDevice, clock: any EmulatorClock = SystemEmulatorClock(), errorRate: Double = 0,
                refusals: [FaultConfiguration.Refusal] = [], faultSeed: UInt64 = 0, logger: any LogService = NullLogService()) {
        self.device = device
        self.clock = clock
        self.errorRate = errorRate
        self.refusals = refusals
        self.logger = logger
        state = Locked(State(faults: SeededRandom(seed: faultSeed)))
        let key = device.addObserver { [weak self] in self?.deviceChanged() }
        observerKey.withLock { $0 = key }
    }

    /// Sets where held requests' responses go when they are answered later.
    public func setDeferredSink(_ sink: @escaping @Sendable (Data, EmulatorPeer) -> Void) {
        state.withLock { $0.sink = sink }
    }

    /// Stops answering: held requests are dropped and the device observer removed.
    public func close() {
        state.withLock { state in
            state.closed = true
            state.held.removeAll()
        }
        if let key = observerKey.withLock({ $0 }) { device.removeObserver(key) }
    }

    /// Handles one datagram from `peer` and returns the datagrams to send back (none for a
    /// dropped datagram, a held long-poll, or a powered-off device).
    public func handle(_ datagram: Data, from peer: EmulatorPeer) -> [Data] {
        guard device.isPoweredOn else { return [] }
        let packet: SMPPacket
        do { packet = try SMPPacket.decode(datagram) } catch {
            logger.log(.debug, "smp", "dropped a datagram from \(peer): \(error)")
            return []
        }
        guard !packet.header.operation.isResponse else {
            logger.log(.debug, "smp", "dropped a response packet from \(peer)")
            return []
        }
        let request = ReplayCache.Request(header: packet.header, payload: packet.payload)
        let lookup: ReplayCache.Lookup? = state.withLock { state in
            state.closed ? nil : state.replay.begin(request, from: peer)
        }
        switch lookup {
        case nil, .pending?:
            return []
        case .answered(let responses)?:
            logger.log(.debug, "smp", "replayed the response to sequence \(packet.header.sequence) for \(peer)")
            return responses
        case .new?:
            break
        }
        let map: CBOR
        do {
            map = packet.payload.isEmpty ? .map([:]) : try packet.payloadMap(limits: Self.requestLimits)
        } catch {
            logger.log(.debug, "smp", "dropped a request from \(peer) whose payload is not one CBOR map: \(error)")
            state.withLock { $0.replay.forget(request, from: peer) }
            return []
        }
        let outcome = injectedFault(for: packet.header) ?? execute(packet.header, map, peer: peer)
        switch outcome {
        case .reply(let body):
            return complete(request, from: peer, body: .success(body))
        case .failure(let failure):
            return complete(request, from: peer, body: .failure(failure))
        case .replyThen(let body, let after):
            let responses = complete(request, from: peer, body: .success(body))
            after()
            return responses
        case .hold(let kind, let wait):
            return hold(request, from: peer, kind: kind, wait: wait)
        }
    }

    // MARK: - Responses

    /// Encodes the response to `request`, records it in the replay cache and returns it.
    private func complete(_ request: ReplayCache.Request, from peer: EmulatorPeer,
                          body: Result<any Encodable & Sendable, SMPFailure>) -> [Data] {
        let responses = [encodeResponse(to: request.header, body)]
        state.withLock { $0.replay.finish(request, from: peer, responses: responses) }
        return responses
    }

    private func encodeResponse(to header: SMPHeader, _ body: Result<any Encodable & Sendable, SMPFailure>) -> Data {
        var payload: Data
        switch body {
        case .success(let encoded as EncodedPayload):
            payload = Data(encoded.bytes)
        case .success(let value):
            do { payload = try CBOREncoder().encode(value) } catch {
                logger.log(.error, "smp", "cannot encode a response: \(error)")
                payload = Data(SMPFailure.smp(.unknown).payload(version: header.version).encoded())
            }
        case .failure(let failure):
            payload = Data(failure.payload(version: header.version).encoded())
        }
        if payload.count > Int(UInt16.max) {
            payload = Data(SMPFailure.smp(.messageTooLarge).payload(version: header.version).encoded())
        }
        var response = Data(header.response(length: UInt16(payload.count)).encoded())
        response.append(payload)
        return response
    }

    private func injectedFault(for header: SMPHeader) -> Outcome? {
        if let refusal = refusals.first(where: { $0.group == header.group && $0.command == header.command }) {
            logger.log(.debug, "smp", "refused group \(header.group) command \(header.command) with rc \(refusal.code.rawValue) (fault)")
            return .failure(.project(header.group, refusal.code))
        }
        guard errorRate > 0, state.withLock({ $0.faults.chance(errorRate) }) else { return nil }
        logger.log(.debug, "smp", "injected a busy error for group \(header.group) command \(header.command)")
        return .failure(header.group >= 64 ? .project(header.group, .busy) : .smp(.busy))
    }

    // MARK: - Long-polls

    private func hold(_ request: ReplayCache.Request, from peer: EmulatorPeer, kind: HeldKind, wait: Duration) -> [Data] {
        let capped = min(wait, Self.maxWait)
        // Registering and checking happen under one lock, and device observers take the same
        // lock before checking, so a change between the two cannot be missed.
        let id: UInt64? = state.withLock { state in
            guard capped > .zero, state.held.count < Self.maxHeld, answer(kind) == nil else { return nil }
            state.nextHeld += 1
            state.held[state.nextHeld] = HeldRequest(peer: peer, request: request, kind: kind)
            return state.nextHeld
        }
        guard let id else {
            return complete(request, from: peer, body: .success(answer(kind) ?? emptyAnswer(kind)))
        }
        clock.schedule(after: capped) { [weak self] in self?.expire(id) }
        return []
    }

    /// The answer to a long-poll when there is something to report.
    private func answer(_ kind: HeldKind) -> (any Encodable & Sendable)? {
        switch kind {
        case .events(let since):
            let (seq, events) = device.events(since: since)
            return events.isEmpty ? nil : DeviceEventsResponse(seq: seq, events: events)
        case .mediaChanged(let since):
            guard let change = device.store.change(since: since) else { return nil }
            return MediaChangedResponse(generation: change.generation, types: change.types.map(\.rawValue))
        case .microphone(let stream, let from):
            return device.audio.microphoneFrames(stream, from: from, budget: device.mtu - 40)
        }
    }

    /// The answer to a long-poll whose wait ended with nothing to report.
    private func emptyAnswer(_ kind: HeldKind) -> any Encodable & Sendable {
        switch kind {
        case .events: return DeviceEventsResponse(seq: device.events(since: .max).seq, events: [])
        case .mediaChanged: return MediaChangedResponse(generation: device.store.generation, types: [])
        case .microphone(_, let from): return AudioMicReadResponse(first: from, frames: [], ended: false)
        }
    }

    private func deviceChanged() {
        let ready: [(HeldRequest, any Encodable & Sendable)] = state.withLock { state in
            var ready: [(HeldRequest, any Encodable & Sendable)] = []
            for (id, held) in state.held {
                guard let body = answer(held.kind) else { continue }
                state.held[id] = nil
                ready.append((held, body))
            }
            return ready
        }
        for (held, body) in ready { deliver(held, body: body) }
    }

    private func expire(_ id: UInt64) {
        guard let held = state.withLock({ $0.held.removeValue(forKey: id) }) else { return }
        deliver(held, body: answer(held.kind) ?? emptyAnswer(held.kind))
    }

    private func deliver(_ held: HeldRequest, body: any Encodable & Sendable) {
        guard device.isPoweredOn else { return }
        let responses = complete(held.request, from: held.peer, body: .success(body))
        guard let sink = state.withLock({ $0.closed ? nil : $0.sink }) else { return }
        for response in responses { sink(response, held.peer) }
    }

    /// Drops the held requests of `peer` (its session was reset).
    func dropHeld(of peer: EmulatorPeer) {
        state.withLock { state in
            state.held = state.held.filter { $0.value.peer != peer }
            state.replay.forget(peer: peer)
        }
    }
}
