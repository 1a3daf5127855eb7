import Foundation

/// The result of a device operation: whether it succeeded, and the error when it did not.
public typealias AIBudsCompletionHandler = @Sendable (_ success: Bool, _ error: NSError?) -> Void

/// The result of a device operation with the device's status code (`nil` on failure).
public typealias AIBudsStatusCodeCompletionHandler =
    @Sendable (_ success: Bool, _ statusCode: NSNumber?, _ error: NSError?) -> Void

/// The result of an operation that reports only its error (`nil` on success).
public typealias AIBudsErrorCompletionHandler = @Sendable (_ error: NSError?) -> Void

/// Progress of a long operation, 0.0 through 1.0.
public typealias AIBudsProgressHandler = @Sendable (_ progress: Double) -> Void
