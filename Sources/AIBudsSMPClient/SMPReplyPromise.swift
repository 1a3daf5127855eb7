import AIBudsSync

/// The outcome of one transmitted request, fulfilled once (by the response, the timeout, a
/// cancellation or the client's close) and awaited by any number of tasks.
final class SMPReplyPromise: Sendable {
    typealias Outcome = Result<SMPReply, SMPError>

    private struct State {
        var outcome: Outcome?
        var waiters: [CheckedContinuation<Outcome, Never>] = []
    }

    private let state = Locked(State())
    /// Reads the response straight from its payload bytes, when the caller asked for a
    /// `PlainPayloadDecodable` response; other callers get the payload map.
    let plainDecoder: SMPExchange.PlainDecoder?

    init(plainDecoder: SMPExchange.PlainDecoder? = nil) {
        self.plainDecoder = plainDecoder
    }

    /// Sets the outcome and wakes every waiter; later calls are ignored.
    func fulfill(_ outcome: Outcome) {
        let waiters = state.withLock { state -> [CheckedContinuation<Outcome, Never>] in
            guard state.outcome == nil else { return [] }
            state.outcome = outcome
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: outcome) }
    }

    /// Waits for the outcome.
    func wait() async -> Outcome {
        await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
            let outcome = state.withLock { state -> Outcome? in
                if let outcome = state.outcome { return outcome }
                state.waiters.append(continuation)
                return nil
            }
            if let outcome { continuation.resume(returning: outcome) }
        }
    }
}
