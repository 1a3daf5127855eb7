/// The one shape of an engine's error: a code from the engine's own enum, words for the user, and
/// the lower-level error behind it.
///
/// Each engine names its error as this type with its code enum (`SMPError` is
/// `CodedError<SMPErrorCode>`), so its callers catch one concrete type and switch over the
/// engine's codes, while the storage, the initializer and the description are written once. The
/// module above an engine maps its codes once to its own vocabulary (the device core's
/// `AIBudsError`, S3's `S3Error`, the AI side's `AIError`); a facade's own error (TopStep's
/// `TSError`) is one too.
public struct CodedError<EngineCode: CodedErrorCode>: Error, Sendable, CustomStringConvertible {
    /// The engine's enum of codes, so that its callers write `SMPError.Code`.
    public typealias Code = EngineCode

    /// The kind of failure, one of the engine's codes.
    public var code: Code
    /// What happened, in words, naming what failed.
    public var message: String
    /// The error behind this one (a system call, a transport, a decoder), when there is one.
    public var underlying: (any Error)?

    /// Creates a failure of kind `code`, with `message` for the user and the lower-level cause, if
    /// any.
    public init(_ code: Code, _ message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    /// The code's ``CodedErrorCode/descriptionPrefix`` (when it has one) and the message, then
    /// the underlying error after a colon: `SMP lengthMismatch: header says 10 bytes, got 8`.
    public var description: String {
        var text = code.descriptionPrefix.map { "\($0): \(message)" } ?? message
        if let underlying { text += ": \(underlying)" }
        return text
    }
}

/// Two failures are equal when their codes and messages are and their underlying errors read the
/// same (an `any Error` has no equality of its own).
extension CodedError: Equatable where Code: Equatable {
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message
            && lhs.underlying.map { "\($0)" } == rhs.underlying.map { "\($0)" }
    }
}

/// Hashes what equality compares that can be hashed: the code and the message.
extension CodedError: Hashable where Code: Hashable {
    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
    }
}

/// A code of a ``CodedError``: an engine's enum of the ways it fails.
public protocol CodedErrorCode: Sendable {
    /// What an error's description says before its message (for example `SMP lengthMismatch`), or
    /// nil when the message says it all; nil unless the code says otherwise.
    var descriptionPrefix: String? { get }
}

extension CodedErrorCode {
    /// No prefix: the description is the message.
    public var descriptionPrefix: String? { nil }
}
