import AIBudsPCM
import Foundation

/// A session as its observers see it when it starts: who, what, with which provider.
public struct AISessionInfo: Sendable, Equatable {
    /// The session's identifier, unique in the process.
    public var id: UUID
    /// Chat, AI audio recording or simultaneous interpretation.
    public var kind: AISessionKind
    /// The parameters it was started with.
    public var parameters: AISessionParameters
    /// The device (or file or microphone) its audio comes from.
    public var device: AISessionDeviceInfo
    /// The provider plugin's name (`AIConnectSDK.providerName`).
    public var providerName: String
    /// The vendor selected when it started.
    public var vendor: String
    /// The wall-clock time the session started.
    public var startedAt: Date

    /// Makes a description.
    public init(
        id: UUID, kind: AISessionKind, parameters: AISessionParameters, device: AISessionDeviceInfo,
        providerName: String, vendor: String, startedAt: Date
    ) {
        self.id = id
        self.kind = kind
        self.parameters = parameters
        self.device = device
        self.providerName = providerName
        self.vendor = vendor
        self.startedAt = startedAt
    }
}

/// One thing an observer is told about a session.
public enum AISessionUpdate: Sendable {
    /// The session started; always the first update of a session.
    case started(AISessionInfo)
    /// A session event (transcripts, reply tokens, translations, errors, the end).
    case event(AISessionEvent)
    /// A chunk of audio the session took from its source, as it arrived.
    case inputAudio(PCMAudio)
    /// A chunk of audio the session gave its sink (speech it synthesized).
    case outputAudio(PCMAudio)
    /// The session ended; always the last update, with its result (error for failed or canceled).
    case ended(AISessionResult, AIError?)
}

/// Hears every AI session of the process: register it with `AIBudsAISDK.addSessionObserver(_:)`.
///
/// This is how a dashboard records sessions: each session sends `.started` first, then its events
/// and audio in the order they happen, then `.ended`. Calls for one session arrive in order on one
/// task at a time; calls for different sessions may overlap. An observer must return quickly (copy
/// what it keeps); a slow observer delays that session's events, never its audio source.
public protocol AISessionObserver: AnyObject, Sendable {
    /// Receives one update of session `id`.
    func aiSession(_ id: UUID, didUpdate update: AISessionUpdate)
}
