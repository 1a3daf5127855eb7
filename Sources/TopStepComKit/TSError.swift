import Foundation

/// The error domain of every `NSError` the TopStep facade reports; codes are `TSErrorEnum` values.
public let TSErrorDomain = "TopStepComKit.TSErrorDomain"

/// The one error type of the TopStep facade: a TopStep code, a message and the underlying cause.
///
/// Completions receive it as an `NSError` (`nsError`) in `TSErrorDomain`, with the message as its
/// `localizedDescription` and the cause under `NSUnderlyingErrorKey`.
public struct TSError: Error, Sendable, CustomStringConvertible {
    /// The TopStep error code.
    public var code: TSErrorEnum
    /// What went wrong, in one sentence.
    public var message: String
    /// The lower-level error that caused this one, if any.
    public var underlying: (any Error)?

    /// Creates a TopStep error: `code`, `message` (the `NSError`'s `localizedDescription`) and the
    /// cause, reported under `NSUnderlyingErrorKey`.
    public init(_ code: TSErrorEnum, _ message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    /// The error as an `NSError` in `TSErrorDomain`.
    public var nsError: NSError {
        var userInfo: [String: Any] = [NSLocalizedDescriptionKey: message]
        if let underlying { userInfo[NSUnderlyingErrorKey] = underlying as NSError }
        return NSError(domain: TSErrorDomain, code: code.rawValue, userInfo: userInfo)
    }

    /// The code, message and cause, for logs.
    public var description: String {
        var text = "TSError \(code.rawValue) (\(code)): \(message)"
        if let underlying { text += " [\(underlying)]" }
        return text
    }

    /// The bound device is missing or not connected (2003).
    static let notConnected = TSError(.notConnected, "no connected device is bound to TopStepComKit")

    /// The device's mask lacks `operation` for `type` (2004).
    static func notSupported(_ operation: TSMediaFileOperation, _ type: TSMediaFileType) -> TSError {
        TSError(.notSupported, "the device does not support \(operation) for \(type) files")
    }
}
