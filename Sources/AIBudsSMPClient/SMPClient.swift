import AIBudsLog
import AIBudsSync
import AIBudsCBOR
import AIBudsWire
import Foundation

/// A client of the Simple Management Protocol over any `SMPTransport`.
///
/// Requests are matched to responses by sequence number, group and command; a request is sent again
/// (same sequence number) every `retransmitInterval` until it is answered or has been sent
/// `retransmissions + 1` times. At most `window` requests are in flight; more wait their turn in
/// call order, so a caller pipelines simply by sending from several tasks. Late, duplicate and
/// unknown responses are dropped, and so are datagrams that are not SMP packets (they are logged).
///
/// Requests use SMP v2 until a device answers a v2 request with a v1 error (a v1-only device), after
/// which the client speaks v1. Cancelling the calling task abandons the request at once and frees
/// its sequence number. All methods are safe from any task.
public final class SMPClient: Sendable {
    /// The transport the client sends over; the client owns it and closes it.
    public let transport: any SMPTransport
    /// The configuration the client was created with (normalized).
    public let configuration: SMPClientConfiguration
    private let clock: any Clock<Duration>
    let logger: any LogService
    private let state: Locked<SMPClientState>

    /// Creates a client and starts receiving on `transport`.
    ///
    /// - Parameters:
    ///   - transport: the link the SMP packets travel over (UDP, GATT, or an in-memory one in tests).
    ///   - configuration: retransmission, window and MTU settings.
    ///   - clock: the clock for retransmissions and timeouts (a manual clock makes tests deterministic).
    ///   - logger: receives dropped datagrams, retransmissions and version changes.
    public init(
        transport: any SMPTransport, configuration: SMPClientConfiguration = SMPClientConfiguration(),
        clock: any Clock<Duration> = ContinuousClock(), logger: any LogService = NullLogService()
    ) throws(SMPError) {
        let configuration = configuration.normalized
        self.transport = transport
        self.configuration = configuration
        self.clock = clock
        self.logger = logger
        var state = SMPClientState(version: configuration.version,
                                   mtu: min(configuration.mtu ?? transport.mtu, transport.mtu), window: configuration.window)
        state.mtuKnown = configuration.mtu != nil
        self.state = Locked(state)
        do {
            try transport.start(
                onReceive: { [weak self] datagram in self?.receive(datagram) },
                onFailure: { [weak self] error in
                    self?.shutDown(SMPError(.transport, "the transport failed", underlying: error))
                })
        } catch {
            throw SMPError(.transport, "cannot start the SMP transport", underlying: error)
        }
    }

    deinit { transport.close() }

    /// The largest packet the client sends, header included.
    public var mtu: Int { state.withLock { $0.mtu } }

    /// The SMP version of new requests (v1 after a fallback).
    public var version: SMPVersion { state.withLock { $0.version } }

    /// How many requests are waiting for their response right now.
    public var requestsInFlight: Int { state.withLock { $0.inFlight.count } }

    /// Sets the largest packet to send, never above the transport's MTU (for example to the device's
    /// `buf_size`).
    public func setMTU(_ mtu: Int) {
        state.withLock { state in
            state.mtu = min(max(mtu, SMPHeader.size + 16), transport.mtu)
            state.mtuKnown = true
        }
    }

    /// Whether the MTU was configured or set for the device (by `setMTU` or `negotiateMTU`).
    public var isMTUKnown: Bool { state.withLock { $0.mtuKnown } }

    /// Sends a request and returns the device's response.
    ///
    /// - Parameter request: the request; its type names the group, command and response type.
    /// - Parameter timeout: how long to wait in total; the retransmissions are spread evenly over
    ///   it. Nil waits `retransmitInterval × (retransmissions + 1)`. A long-poll request passes its
    ///   wait plus a margin.
    /// - Throws: `SMPError` with `.device` for a non-zero return code, `.timeout`, `.transport`,
    ///   `.malformedResponse`, `.cancelled`, `.closed` or `.invalidRequest`.
    public func send<R: SMPRequest>(_ request: R, timeout: Duration? = nil) async throws(SMPError) -> R.Response {
        try await start(request, timeout: timeout).response()
    }

    /// Sends a request as soon as a window slot is free and returns without waiting for the
    /// response, so that a caller can put several requests on the link in a fixed order and collect
    /// the responses afterwards (pipelining). The request stays in flight, with retransmissions,
    /// whether or not anyone awaits the response.
    public func start<R: SMPRequest>(_ request: R, timeout: Duration? = nil) async throws(SMPError) -> SMPPendingResponse<R.Response> {
        let label = "\(R.self) (group \(R.group), command \(R.command))"
        let payload: Data
        do {
            payload = try CBOREncoder().encode(request)
        } catch {
            throw SMPError(.invalidRequest, "cannot encode \(label)", underlying: error)
        }
        let exchange = try await begin(SMPExchange.Request(
            group: R.group, command: R.command, operation: R.operation, payload: payload, label: label, timeout: timeout,
            plainDecoder: Self.plainDecoder(for: R.Response.self)))
        return SMPPendingResponse(exchange: exchange)
    }

    /// How `Response` reads itself straight from its payload bytes, when it can.
    private static func plainDecoder<Response>(for _: Response.Type) -> SMPExchange.PlainDecoder? {
        guard let type = Response.self as? any PlainPayloadDecodable.Type else { return nil }
        return { payload in type.decode(plainPayload: payload) }
    }

    /// Sends a request given as a raw payload map and returns the response's payload map.
    public func send(
        group: UInt16, command: UInt8, operation: SMPOperation, payload: CBOR, timeout: Duration? = nil
    ) async throws(SMPError) -> CBOR {
        guard !operation.isResponse else { throw SMPError(.invalidRequest, "\(operation) is not a request operation") }
        let request = SMPExchange.Request(group: group, command: command, operation: operation,
                                          payload: Data(payload.encoded()),
                                          label: "request (group \(group), command \(command))", timeout: timeout)
        return try await begin(request).payload()
    }

    /// Fails every request in flight and every later one with `closed`, and closes the transport.
    public func close() {
        shutDown(SMPError(.closed, "the SMP client was closed"))
    }

    /// Whether the client was closed (or its transport failed).
    public var isClosed: Bool { state.withLock { $0.closedError != nil } }

    // MARK: - Exchanges

    /// Waits for a window slot, then registers and transmits `request` under a fresh sequence
    /// number, in the client's current SMP version unless `version` says otherwise.
    func begin(_ request: SMPExchange.Request, version: SMPVersion? = nil) async throws(SMPError) -> SMPExchange {
        guard !Task.isCancelled else { throw SMPError(.cancelled, "\(request.label) was cancelled") }
        let id = state.withLock { $0.makeID() }
        try await acquireSlot(id: id, label: request.label)
        if Task.isCancelled {
            state.withLock { $0.releaseSlot() }?.resume(returning: nil)
            throw SMPError(.cancelled, "\(request.label) was cancelled")
        }
        let promise = SMPReplyPromise(plainDecoder: request.plainDecoder)
        let (registered, version) = state.withLock { state in
            let version = version ?? state.version
            return (state.register(id: id, group: request.group, command: request.command, operation: request.operation,
                                   payload: request.payload, version: version, label: request.label, promise: promise),
                    version)
        }
        let datagram: Data
        switch registered {
        case .refused(let error, let next):
            next?.resume(returning: nil)
            throw error
        case .registered(let bytes):
            datagram = bytes
        }
        let exchange = SMPExchange(client: self, request: request, id: id, version: version, promise: promise)
        do {
            try transport.send(datagram)
        } catch {
            finish(id: id, with: .failure(SMPError(.transport, "cannot send \(request.label)", underlying: error)))
            return exchange
        }
        let attempts = configuration.retransmissions + 1
        let interval = request.timeout.map { $0 / attempts } ?? configuration.retransmitInterval
        let timer = Task<Void, Never> { [weak self] in
            await self?.retransmit(id: id, interval: interval, attempts: attempts)
        }
        if let finished = state.withLock({ $0.attach(timer: timer, to: id) }) { finished.cancel() }
        return exchange
    }

    /// Switches new requests to SMP v1 after a v1-only device refused a v2 request.
    func fallBackToV1(after label: String, rc: Int) {
        let switched = state.withLock { state -> Bool in
            defer { state.version = .v1 }
            return state.version == .v2
        }
        if switched {
            logger.log(.info, "smp", "the device answered \(label) with a v1 error (rc \(rc)); switching to SMP v1")
        }
    }

    /// Abandons request `id` because the task awaiting it was cancelled.
    func cancel(id: UInt64, label: String) {
        finish(id: id, with: .failure(SMPError(.cancelled, "\(label) was cancelled")))
    }

    /// Waits for a window slot.
    private func acquireSlot(id: UInt64, label: String) async throws(SMPError) {
        let failure: SMPError? = await withTaskCancellationHandler {
            await withCheckedContinuation { (grant: SMPClientState.SlotGrant) in
                let decision = state.withLock { $0.acquireSlot(id: id, grant: grant) }
                switch decision {
                case .granted: grant.resume(returning: nil)
                case .failed(let error): grant.resume(returning: error)
                case .queued: break
                }
            }
        } onCancel: {
            let waiter = state.withLock { $0.cancelSlotWait(id: id) }
            waiter?.resume(returning: SMPError(.cancelled, "\(label) was cancelled while waiting for a window slot"))
        }
        if let failure { throw failure }
    }

    /// The retransmission timer of request `id`: sends it again after each interval, then times it out.
    private func retransmit(id: UInt64, interval: Duration, attempts: Int) async {
        for attempt in 1...attempts {
            do {
                try await clock.sleep(for: interval)
            } catch {
                return  // cancelled: the request finished
            }
            guard let (datagram, label) = state.withLock({ $0.datagram(of: id) }) else { return }
            if attempt == attempts {
                finish(id: id, with: .failure(SMPError(.timeout, "\(label) got no response (sent \(attempts) times, \(interval) apart)")))
                return
            }
            logger.log(.debug, "smp", "retransmitting \(label) (\(attempt) of \(attempts - 1))")
            do {
                try transport.send(datagram)
            } catch {
                finish(id: id, with: .failure(SMPError(.transport, "cannot send \(label) again", underlying: error)))
                return
            }
        }
    }

    /// Completes request `id` with `outcome` if it is still in flight.
    private func finish(id: UInt64, with outcome: SMPReplyPromise.Outcome) {
        guard let departure = state.withLock({ $0.remove(id: id) }) else { return }
        complete(departure, with: outcome)
    }

    /// Does what a departure from the in-flight table needs, outside the lock.
    private func complete(_ departure: SMPClientState.Departure, with outcome: SMPReplyPromise.Outcome) {
        departure.request.timer?.cancel()
        departure.nextInLine?.resume(returning: nil)
        departure.request.promise.fulfill(outcome)
    }

    // MARK: - Receiving

    /// Handles one received datagram: completes the request it answers, or drops it.
    private func receive(_ datagram: Data) {
        let packet: SMPPacket
        do {
            packet = try SMPPacket.decode(datagram)
        } catch {
            logger.log(.warning, "smp", "dropped a malformed \(datagram.count)-byte datagram: \(error)")
            return
        }
        let header = packet.header
        guard let departure = state.withLock({ $0.match(header) }) else {
            logger.log(.debug, "smp", "dropped an unexpected packet (op \(header.operation), group \(header.group), command \(header.command), sequence \(header.sequence)): late, duplicate or unknown")
            return
        }
        let label = departure.request.label
        if let decoded = departure.request.promise.plainDecoder?(packet.payload) {
            // A response such as a list page of hundreds of entries, read without building its
            // generic CBOR tree.
            complete(departure, with: .success(SMPReply(header: header, payload: .map([:]), decoded: decoded)))
            return
        }
        do {
            let payload = try packet.payloadMap()
            complete(departure, with: .success(SMPReply(header: header, payload: payload)))
        } catch {
            logger.log(.warning, "smp", "the response to \(label) has a malformed payload: \(error)")
            complete(departure, with: .failure(
                SMPError(.malformedResponse, "the response to \(label) is not a CBOR map", underlying: error)))
        }
    }

    /// Closes the client with `error` for everything in flight or waiting.
    private func shutDown(_ error: SMPError) {
        let (requests, waiters) = state.withLock { $0.close(with: error) }
        for request in requests {
            request.timer?.cancel()
            request.promise.fulfill(.failure(error))
        }
        for waiter in waiters { waiter.resume(returning: error) }
        transport.close()
    }
}
