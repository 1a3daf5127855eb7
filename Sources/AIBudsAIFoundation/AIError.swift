import Foundation

/// The error domain of every `NSError` the AI side reports (`AIBudsAISDK.ErrorDomain`).
public let AIBudsAIErrorDomain = "AIBudsAISDK.ErrorDomain"

/// The codes of the AI side's errors (domain `AIBudsAISDK.ErrorDomain`), 8001 and up so they never
/// collide with the device side's `SdkErrorCode`.
public enum AIErrorCode: Int, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// `AIBudsAISDK` was used before `initialize(aiSDKs:)`.
    case notInitialized = 8001
    /// No provider is selected: `setAIServiceVendor(.none)` or nothing selected yet.
    case noProviderSelected = 8002
    /// No registered `AIConnectSDK` serves the selected vendor or provider name.
    case providerUnavailable = 8003
    /// The selected provider does not offer this capability (an offline provider without chat, say).
    case capabilityUnsupported = 8004
    /// A parameter is invalid: empty text, an unknown language pair, a malformed file.
    case invalidParameters = 8005
    /// The provider's server could not be reached (connection refused, name not resolved, TLS).
    case serverUnreachable = 8006
    /// The provider's server answered with an HTTP error status.
    case serverError = 8007
    /// The provider's answer could not be understood.
    case invalidResponse = 8008
    /// The session's audio source failed or gave audio the session cannot use.
    case audioSourceFailed = 8009
    /// The session's audio sink refused audio.
    case audioSinkFailed = 8010
    /// A local engine (espeak-ng, apertium, pocketsphinx) failed or is not installed.
    case engineFailed = 8011
    /// The operation or session was canceled.
    case canceled = 8012
    /// The provider took longer than the allowed time.
    case timeout = 8013
    /// The session is not running (stopped, canceled or failed already).
    case sessionNotRunning = 8014
    /// A file could not be read or written.
    case fileError = 8015

    /// A short English description, used when no specific message is given.
    public var description: String {
        switch self {
        case .notInitialized: "AIBudsAISDK is not initialized"
        case .noProviderSelected: "no AI provider is selected"
        case .providerUnavailable: "no AI provider plugin is registered for the selection"
        case .capabilityUnsupported: "the AI provider does not support this operation"
        case .invalidParameters: "invalid parameters"
        case .serverUnreachable: "the AI server cannot be reached"
        case .serverError: "the AI server returned an error"
        case .invalidResponse: "the AI server's response could not be understood"
        case .audioSourceFailed: "the audio source failed"
        case .audioSinkFailed: "the audio sink failed"
        case .engineFailed: "a local AI engine failed"
        case .canceled: "the AI operation was canceled"
        case .timeout: "the AI operation timed out"
        case .sessionNotRunning: "the AI session is not running"
        case .fileError: "a file could not be read or written"
        }
    }
}

/// The AI side's one error type: a code, a message, the HTTP status when a server answered with
/// one, and the underlying cause. Bridges to `NSError` in domain `AIBudsAISDK.ErrorDomain`.
public struct AIError: Error, CustomNSError, CustomStringConvertible, Equatable, Sendable {
    /// The `userInfo` key of the server's HTTP status code.
    public static let httpStatusKey = "AIBudsAIHTTPStatus"

    /// What went wrong.
    public var code: AIErrorCode
    /// A one-line explanation for people.
    public var message: String
    /// The HTTP status the provider's server answered with, when that is the failure.
    public var httpStatus: Int?
    /// The error that caused this one, if any.
    public var underlying: (any Error)?

    /// Creates an error; `message` defaults to the code's description.
    public init(_ code: AIErrorCode, _ message: String? = nil, httpStatus: Int? = nil, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message ?? code.description
        self.httpStatus = httpStatus
        self.underlying = underlying
    }

    /// `AIBudsAISDK.ErrorDomain`.
    public static var errorDomain: String { AIBudsAIErrorDomain }
    /// The `AIErrorCode` raw value.
    public var errorCode: Int { code.rawValue }
    /// The message, the HTTP status and the underlying error.
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: message]
        if let httpStatus { info[Self.httpStatusKey] = NSNumber(value: httpStatus) }
        if let underlying { info[NSUnderlyingErrorKey] = underlying as NSError }
        return info
    }

    /// `message (code N)`, then the underlying error when there is one.
    public var description: String {
        var text = "\(message) (code \(code.rawValue))"
        if let underlying { text += ": \(underlying)" }
        return text
    }

    /// Errors are equal when code, message and HTTP status are; the cause is not compared.
    public static func == (lhs: AIError, rhs: AIError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.httpStatus == rhs.httpStatus
    }

    /// Any error as an `AIError`: `AIError`s are kept, `CancellationError` becomes `canceled`,
    /// anything else `engineFailed` with the error as its cause.
    public static func from(_ error: any Error) -> AIError {
        if let error = error as? AIError { return error }
        if error is CancellationError { return AIError(.canceled) }
        return AIError(.engineFailed, "\(error)", underlying: error)
    }
}
