import AIBudsAIFoundation
import AIBudsAudio
import Dispatch
import Foundation

/// A session event, delivered on `AIBudsAISDK.callbackQueue`.
public typealias AIBudsAISessionEventHandler = @Sendable (_ event: AISessionEvent) -> Void
/// How a session ended: its result, or the error (domain `AIBudsAISDK.ErrorDomain`).
public typealias AIBudsAISessionCompletionHandler = @Sendable (_ result: AISessionResult?, _ error: NSError?) -> Void

extension AIBudsAISDK {
    /// The serial queue on which the completion-handler forms call back (a private queue unless
    /// an app sets its own before starting work).
    public nonisolated(unsafe) static var callbackQueue = DispatchQueue(label: "AIBudsAISDK.callbacks")

    /// Starts an AI chat: each utterance heard on `source` is transcribed, answered by the chat
    /// model (reply tokens stream as events) and spoken into `sink` sentence by sentence.
    /// Throws when no provider is selected or it lacks transcription, chat or (with a sink) speech.
    public static func startAIChat(
        parameters: AISessionParameters = AISessionParameters(), source: any AIAudioSource, sink: (any AIAudioSink)?
    ) async throws -> AISession {
        try await start(.chat, parameters, source, sink, needs: AICapabilities([.transcription, .chat]).union(sink == nil ? [] : .speech))
    }

    /// Starts an AI audio recording: everything heard is kept (16 kHz mono), each utterance is
    /// transcribed as it ends, and the transcript is summarized when the session stops.
    public static func startAIAudioRecording(
        parameters: AISessionParameters = AISessionParameters(), source: any AIAudioSource
    ) async throws -> AISession {
        try await start(.audioRecording, parameters, source, nil, needs: [.transcription, .summary])
    }

    /// Starts simultaneous interpretation from `parameters.language` into
    /// `parameters.targetLanguage`: each utterance is transcribed, translated (an event) and the
    /// translation spoken into `sink`.
    public static func startSimultaneousInterpretation(
        parameters: AISessionParameters, source: any AIAudioSource, sink: (any AIAudioSink)?
    ) async throws -> AISession {
        guard let target = parameters.targetLanguage, !target.isEmpty else {
            throw AIError(.invalidParameters, "simultaneous interpretation needs a target language")
        }
        return try await start(
            .simultaneousInterpretation, parameters, source, sink,
            needs: AICapabilities([.transcription, .translation]).union(sink == nil ? [] : .speech))
    }

    /// Starts streaming speech recognition (the wiki's "Streaming ASR"): while someone speaks on
    /// `source`, `partialTranscript` events say what the utterance says so far (every
    /// `parameters.partialResultInterval` seconds of speech, 0.5 when nil), and when a pause ends
    /// it, a `transcript` event has its final text. The result holds every final transcript.
    public static func startStreamingASR(
        parameters: AISessionParameters = AISessionParameters(), source: any AIAudioSource
    ) async throws -> AISession {
        try await start(.streamingASR, try streaming(parameters), source, nil, needs: [.transcription])
    }

    /// ``startStreamingASR(parameters:source:)`` with `provider` rather than the selected one: for
    /// a module that brings its own recognizer (the voice assistant's offline one), whatever the
    /// app selected for its other sessions. Needs no `initialize(aiSDKs:)`.
    public static func startStreamingASR(
        parameters: AISessionParameters = AISessionParameters(), source: any AIAudioSource, using provider: any AIConnectSDK
    ) async throws -> AISession {
        let parameters = try streaming(parameters)
        guard provider.capabilities.contains(.transcription) else {
            throw AIError(.capabilityUnsupported, "\(provider.providerName) does not transcribe speech")
        }
        return start(.streamingASR, parameters, source, nil, provider: provider)
    }

    // MARK: Completion-handler forms

    /// `startStreamingASR` with the vendor's callbacks (see `startAIChat(...completion:)`): the
    /// partial and final transcripts arrive as events.
    @discardableResult
    public static func startStreamingASR(
        parameters: AISessionParameters = AISessionParameters(), source: any AIAudioSource,
        eventHandler: AIBudsAISessionEventHandler?, completion: AIBudsAISessionCompletionHandler?
    ) -> AISessionHandle {
        handle(eventHandler, completion) { try await startStreamingASR(parameters: parameters, source: source) }
    }

    /// `startAIChat` with the vendor's callbacks: events and the end on `callbackQueue`; the
    /// session is returned at once (a start failure reaches `completion` only).
    @discardableResult
    public static func startAIChat(
        parameters: AISessionParameters = AISessionParameters(), source: any AIAudioSource, sink: (any AIAudioSink)?,
        eventHandler: AIBudsAISessionEventHandler?, completion: AIBudsAISessionCompletionHandler?
    ) -> AISessionHandle {
        handle(eventHandler, completion) { try await startAIChat(parameters: parameters, source: source, sink: sink) }
    }

    /// `startAIAudioRecording` with the vendor's callbacks (see `startAIChat(...completion:)`).
    @discardableResult
    public static func startAIAudioRecording(
        parameters: AISessionParameters = AISessionParameters(), source: any AIAudioSource,
        eventHandler: AIBudsAISessionEventHandler?, completion: AIBudsAISessionCompletionHandler?
    ) -> AISessionHandle {
        handle(eventHandler, completion) { try await startAIAudioRecording(parameters: parameters, source: source) }
    }

    /// `startSimultaneousInterpretation` with the vendor's callbacks (see `startAIChat(...completion:)`).
    @discardableResult
    public static func startSimultaneousInterpretation(
        parameters: AISessionParameters, source: any AIAudioSource, sink: (any AIAudioSink)?,
        eventHandler: AIBudsAISessionEventHandler?, completion: AIBudsAISessionCompletionHandler?
    ) -> AISessionHandle {
        handle(eventHandler, completion) {
            try await startSimultaneousInterpretation(parameters: parameters, source: source, sink: sink)
        }
    }

    // MARK: Internals

    /// `parameters` with a partial result interval: 0.5 s when it has none.
    private static func streaming(_ parameters: AISessionParameters) throws -> AISessionParameters {
        var parameters = parameters
        if parameters.partialResultInterval == nil { parameters.partialResultInterval = 0.5 }
        guard let interval = parameters.partialResultInterval, interval > 0, interval.isFinite else {
            throw AIError(.invalidParameters, "the partial result interval must be a positive number of seconds")
        }
        return parameters
    }

    static func start(
        _ kind: AISessionKind, _ parameters: AISessionParameters, _ source: any AIAudioSource,
        _ sink: (any AIAudioSink)?, needs: AICapabilities
    ) async throws -> AISession {
        start(kind, parameters, source, sink, provider: try await provider(for: needs))
    }

    /// Starts a session of `kind` with `provider`.
    static func start(
        _ kind: AISessionKind, _ parameters: AISessionParameters, _ source: any AIAudioSource,
        _ sink: (any AIAudioSink)?, provider: any AIConnectSDK
    ) -> AISession {
        let info = AISessionInfo(
            id: UUID(), kind: kind, parameters: parameters, device: source.deviceInfo,
            providerName: provider.providerName, vendor: "\(aiServiceVendor)", startedAt: Date())
        let session = AISession(info: info, observers: observers)
        session.start(provider: provider, source: source, sink: sink)
        return session
    }

    private static func handle(
        _ eventHandler: AIBudsAISessionEventHandler?, _ completion: AIBudsAISessionCompletionHandler?,
        _ start: @escaping @Sendable () async throws -> AISession
    ) -> AISessionHandle {
        let handle = AISessionHandle()
        Task {
            do {
                let session = try await start()
                handle.attach(session)
                for await event in session.events {
                    if let eventHandler { callbackQueue.async { eventHandler(event) } }
                }
                let outcome: (AISessionResult?, NSError?)
                do { outcome = (try await session.result(), nil) } catch { outcome = (nil, AIError.from(error) as NSError) }
                callbackQueue.async { completion?(outcome.0, outcome.1) }
            } catch {
                let error = AIError.from(error) as NSError
                callbackQueue.async { completion?(nil, error) }
            }
        }
        return handle
    }
}

/// The session of a completion-handler start, which exists only once the provider accepted it:
/// `stop()` and `cancel()` act on it then, or as soon as it starts.
public final class AISessionHandle: Sendable {
    private let state = AIBudsSyncBox()

    /// Stops listening and finishes what was heard (see `AISession.stop()`).
    public func stop() { state.apply(.stop) }
    /// Ends the session at once (see `AISession.cancel()`).
    public func cancel() { state.apply(.cancel) }
    /// The session, once started.
    public var session: AISession? { state.session }

    func attach(_ session: AISession) { state.attach(session) }
}
