import AIBudsAIFoundation
import AIBudsAudio
import AIBudsSync
import Foundation

/// A running chat, AI audio recording or simultaneous interpretation.
///
/// The session reads its source's audio, cuts it into utterances at pauses, and for each one
/// transcribes it and then (chat) streams the assistant's reply and speaks it sentence by
/// sentence, or (interpretation) translates and speaks it, or (recording) keeps it for the
/// transcript and summary. Events arrive in order on ``events`` and at every session observer.
/// ``stop()`` stops listening and finishes the work already heard; ``cancel()`` drops it.
public final class AISession: Sendable {
    /// The session's identifier (also in every observer call).
    public let id: UUID
    /// What the observers were told when it started.
    public let info: AISessionInfo
    /// The session's events, in order, ending after `.finished`, `.failed` or `.canceled`.
    public let events: AsyncStream<AISessionEvent>

    private let eventContinuation: AsyncStream<AISessionEvent>.Continuation
    private let observers: [any AISessionObserver]
    private let emitLock = Locked(())
    private let control = Locked(Control())
    private let outcome = Locked<Result<AISessionResult, AIError>?>(nil)
    private let outcomeWaiters = Locked<[CheckedContinuation<Result<AISessionResult, AIError>, Never>]>([])

    private struct Control {
        var listener: Task<Void, Never>?
        var main: Task<Void, Never>?
        var stopRequested = false
    }

    /// Chat, AI audio recording or simultaneous interpretation (from `info`).
    public var kind: AISessionKind { info.kind }

    init(info: AISessionInfo, observers: [any AISessionObserver]) {
        id = info.id
        self.info = info
        self.observers = observers
        (events, eventContinuation) = AsyncStream.makeStream(bufferingPolicy: .unbounded)
    }

    /// Stops listening: audio already heard is still transcribed, answered or translated, then
    /// the session finishes. Does nothing once the session has ended.
    public func stop() {
        let listener = control.withLock { c -> Task<Void, Never>? in
            c.stopRequested = true
            return c.listener
        }
        listener?.cancel()
    }

    /// Ends the session at once: nothing more is processed or spoken; it ends with `.canceled`.
    public func cancel() {
        let main = control.withLock { $0.main }
        main?.cancel()
    }

    /// Waits for the session to end and returns what it produced; throws its error when it failed
    /// or was canceled.
    public func result() async throws -> AISessionResult {
        let outcome = await withCheckedContinuation { (continuation: CheckedContinuation<Result<AISessionResult, AIError>, Never>) in
            let ready = self.outcome.withLock { outcome -> Result<AISessionResult, AIError>? in
                if let outcome { return outcome }
                outcomeWaiters.withLock { $0.append(continuation) }
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
        return try outcome.get()
    }

    // MARK: Running

    func start(provider: any AIConnectSDK, source: any AIAudioSource, sink: (any AIAudioSink)?) {
        notify(.started(info))
        let task = Task { [self] in
            let work = SessionWork(session: self, provider: provider, sink: sink)
            var result = AISessionResult(kind: info.kind)
            var failure: AIError?
            do {
                result = try await work.run(source: source)
            } catch {
                failure = Task.isCancelled ? AIError(.canceled) : AIError.from(error)
                result = work.partialResult
            }
            if let failure {
                emit(failure.code == .canceled ? .canceled : .failed(failure))
            } else {
                emit(.finished)
            }
            finish(result, failure)
        }
        control.withLock { $0.main = task }
    }

    func setListener(_ task: Task<Void, Never>) -> Bool {
        control.withLock { c in
            c.listener = task
            return !c.stopRequested
        }
    }

    var isStopRequested: Bool { control.withLock { $0.stopRequested } }

    /// Sends an event to the stream and the observers, one at a time and in order.
    func emit(_ event: AISessionEvent) {
        emitLock.withLock { _ in
            eventContinuation.yield(event)
            for observer in observers { observer.aiSession(id, didUpdate: .event(event)) }
        }
    }

    /// Sends an update to the observers only, in order with the events.
    func notify(_ update: AISessionUpdate) {
        guard !observers.isEmpty else { return }
        emitLock.withLock { _ in
            for observer in observers { observer.aiSession(id, didUpdate: update) }
        }
    }

    private func finish(_ result: AISessionResult, _ error: AIError?) {
        notify(.ended(result, error))
        eventContinuation.finish()
        let outcome: Result<AISessionResult, AIError> = error.map { .failure($0) } ?? .success(result)
        let waiters = self.outcome.withLock { stored -> [CheckedContinuation<Result<AISessionResult, AIError>, Never>] in
            stored = outcome
            return outcomeWaiters.withLock { w in
                defer { w = [] }
                return w
            }
        }
        for waiter in waiters { waiter.resume(returning: outcome) }
    }
}
