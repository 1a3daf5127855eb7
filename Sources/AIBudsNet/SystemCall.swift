#if canImport(Glibc)
import Glibc
#endif

/// A system call that failed: its name and the `errno` it left.
public struct SystemCallError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The call, such as `recv` or `fsync`.
    public var operation: String
    /// The `errno` the call reported.
    public var errno: Int32

    /// Creates an error for `operation` failing with `errno`.
    public init(_ operation: String, errno: Int32) {
        self.operation = operation
        self.errno = errno
    }

    /// Whether the call would have blocked (`EAGAIN`/`EWOULDBLOCK`) on a non-blocking descriptor.
    public var wouldBlock: Bool { errno == EAGAIN || errno == EWOULDBLOCK }

    /// `operation: strerror (errno N)`.
    public var description: String { "\(operation): \(String(cString: strerror(errno))) (errno \(errno))" }
}

/// The one door of `AIBudsNet` and `AIBudsTransfer` to the system (in the spirit of swift-nio's
/// `SystemCallHelpers`): a call interrupted by a signal (`EINTR`) is made again, and a failure
/// (-1 and `errno`) becomes a `SystemCallError`, so no caller loops on `EINTR` or reads `errno`.
public enum SystemCall {
    /// Makes `call` until it is not interrupted; its result when not negative, else the failure
    /// with its `errno`. Never throws, so a hot path's expected `EAGAIN` costs no error box.
    /// `retryingOnInterrupt: false` is for a call that must not simply be made again after
    /// `EINTR` (an interrupted `connect` goes on in the background): its `EINTR` is returned.
    @inlinable
    public static func result<Value: FixedWidthInteger & SignedInteger>(
        _ operation: StaticString, retryingOnInterrupt: Bool = true, _ call: () -> Value
    ) -> Result<Value, SystemCallError> {
        while true {
            let value = call()
            if value >= 0 { return .success(value) }
            let code = Glibc.errno
            if code == EINTR, retryingOnInterrupt { continue }
            return .failure(SystemCallError("\(operation)", errno: code))
        }
    }

    /// Makes `call` until it is not interrupted; returns its result, or throws its failure.
    @inlinable
    @discardableResult
    public static func retryingOnInterrupt<Value: FixedWidthInteger & SignedInteger>(
        _ operation: StaticString, _ call: () -> Value
    ) throws(SystemCallError) -> Value {
        try result(operation, call).get()
    }

    /// Closes `descriptor`. `EINTR` counts as closed and is not retried: Linux frees the number
    /// even then, and a second `close` could close a file another thread just opened under it.
    /// Throws for anything else, such as `EBADF` for a number that is not open.
    public static func close(_ descriptor: Int32) throws(SystemCallError) {
        guard Glibc.close(descriptor) != 0 else { return }
        let code = Glibc.errno
        if code == EINTR { return }
        throw SystemCallError("close", errno: code)
    }

    /// Closes `descriptor` where nothing could be done about a failure (cleanup after another error,
    /// a `deinit`).
    public static func closeIgnoringErrors(_ descriptor: Int32) {
        _ = try? close(descriptor)
    }
}
