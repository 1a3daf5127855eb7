import AIBudsErrors
import Foundation

/// The error domain of every `NSError` the TopStep facade reports; codes are `TSErrorEnum` values.
public let TSErrorDomain = "TopStepComKit.TSErrorDomain"

/// The one error type of the TopStep facade: a TopStep code (``TSErrorEnum``), a message and the
/// underlying cause.
///
/// Completions receive it as an `NSError` (`nsError`) in `TSErrorDomain`, with the message as its
/// `localizedDescription` and the cause under `NSUnderlyingErrorKey`.
public typealias TSError = CodedError<TSErrorEnum>

extension TSErrorEnum: CodedErrorCode {
    /// `TSError`, the code's number and name: a description reads
    /// `TSError 2003 (notConnected): no connected device is bound to TopStepComKit`.
    public var descriptionPrefix: String? { "TSError \(rawValue) (\(self))" }
}

extension CodedError where Code == TSErrorEnum {
    /// The error as an `NSError` in `TSErrorDomain`.
    public var nsError: NSError {
        var userInfo: [String: Any] = [NSLocalizedDescriptionKey: message]
        if let underlying { userInfo[NSUnderlyingErrorKey] = underlying as NSError }
        return NSError(domain: TSErrorDomain, code: code.rawValue, userInfo: userInfo)
    }

    /// The bound device is missing or not connected (2003).
    static let notConnected = TSError(.notConnected, "no connected device is bound to TopStepComKit")

    /// The device's mask lacks `operation` for `type` (2004).
    static func notSupported(_ operation: TSMediaFileOperation, _ type: TSMediaFileType) -> TSError {
        TSError(.notSupported, "the device does not support \(operation) for \(type) files")
    }
}
