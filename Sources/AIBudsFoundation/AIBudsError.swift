import Foundation

/// The SDK's one error type: a code, a message and the underlying cause.
///
/// It bridges to `NSError` in domain `AIBudsSDK.ErrorDomain` (`error as NSError` or ``nsError``), which is
/// what the completion-handler API hands to apps.
public struct AIBudsError: Error, CustomNSError, CustomStringConvertible, Equatable, Sendable {
    /// The `userInfo` key of the device's own status code, when the device answered with one.
    public static let deviceStatusCodeKey = "AIBudsDeviceStatusCode"

    /// What went wrong, as an `SdkErrorCode`.
    public var code: SdkErrorCode
    /// A one-line human-readable explanation.
    public var message: String
    /// The error that caused this one, if any.
    public var underlying: (any Error)?
    /// The status code the device returned (an SMP `rc`), when the failure came from the device.
    public var deviceStatusCode: Int?

    /// Creates an error; `message` defaults to the code's description.
    public init(_ code: SdkErrorCode, _ message: String? = nil, underlying: (any Error)? = nil, deviceStatusCode: Int? = nil) {
        self.code = code
        self.message = message ?? code.description
        self.underlying = underlying
        self.deviceStatusCode = deviceStatusCode
    }

    /// Rebuilds an error from an `NSError` of domain `AIBudsSDK.ErrorDomain`; `nil` for other domains.
    public init?(_ error: NSError) {
        guard error.domain == AIBudsErrorDomain else { return nil }
        let code = SdkErrorCode(rawValue: error.code) ?? .unknown
        self.init(
            code,
            error.userInfo[NSLocalizedDescriptionKey] as? String,
            underlying: error.userInfo[NSUnderlyingErrorKey] as? NSError,
            deviceStatusCode: (error.userInfo[Self.deviceStatusCodeKey] as? NSNumber)?.intValue)
    }

    /// The error domain, `AIBudsSDK.ErrorDomain`.
    public static var errorDomain: String { AIBudsErrorDomain }
    /// The `SdkErrorCode` raw value.
    public var errorCode: Int { code.rawValue }
    /// The message, the underlying error and the device status code.
    public var errorUserInfo: [String: Any] {
        var info: [String: Any] = [NSLocalizedDescriptionKey: message]
        if let underlying { info[NSUnderlyingErrorKey] = underlying as NSError }
        if let deviceStatusCode { info[Self.deviceStatusCodeKey] = NSNumber(value: deviceStatusCode) }
        return info
    }

    /// This error as an `NSError` in domain `AIBudsSDK.ErrorDomain`.
    public var nsError: NSError {
        NSError(domain: Self.errorDomain, code: errorCode, userInfo: errorUserInfo)
    }

    /// `message (code N)`, followed by the underlying error when there is one.
    public var description: String {
        var text = "\(message) (code \(code.rawValue))"
        if let underlying { text += ": \(underlying)" }
        return text
    }

    /// Errors are equal when code, message and device status code are; the underlying error is not compared.
    public static func == (lhs: AIBudsError, rhs: AIBudsError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.deviceStatusCode == rhs.deviceStatusCode
    }

    /// Converts any error into an `NSError` of domain `AIBudsSDK.ErrorDomain`.
    ///
    /// `AIBudsError`s and `NSError`s of that domain are kept; `CancellationError` becomes
    /// `operationCanceled`; anything else becomes `unknown` with the error as its cause.
    public static func nsError(from error: any Error) -> NSError {
        if let error = error as? AIBudsError { return error.nsError }
        if error is CancellationError { return AIBudsError(.operationCanceled, underlying: nil).nsError }
        let ns = error as NSError
        if ns.domain == AIBudsErrorDomain { return ns }
        return AIBudsError(.unknown, "\(error)", underlying: error).nsError
    }

    /// Converts any error into an `AIBudsError` by the same rules as ``nsError(from:)``.
    public static func from(_ error: any Error) -> AIBudsError {
        if let error = error as? AIBudsError { return error }
        if error is CancellationError { return AIBudsError(.operationCanceled) }
        if let mine = AIBudsError(error as NSError) { return mine }
        return AIBudsError(.unknown, "\(error)", underlying: error)
    }
}

extension SdkErrorCode {
    /// Builds an `NSError` of this code in domain `AIBudsSDK.ErrorDomain`.
    public func makeError(_ message: String? = nil, underlying: (any Error)? = nil) -> NSError {
        AIBudsError(self, message, underlying: underlying).nsError
    }
}
