#if canImport(Glibc)
import Glibc
#endif

/// An error from a socket operation: what failed, in words, and the `errno` behind it.
public struct NetError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The kind of failure; extensible, so other socket types can add their own codes.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The code's name, for example `timedOut`.
        public let name: String
        /// Creates a code with a name.
        public init(_ name: String) { self.name = name }
        /// The code's name.
        public var description: String { name }

        /// A host or port could not be parsed.
        public static let invalidAddress = Code("invalidAddress")
        /// The socket could not be created or configured.
        public static let socketFailed = Code("socketFailed")
        /// The address could not be bound (in use, not local).
        public static let bindFailed = Code("bindFailed")
        /// `listen(2)` failed.
        public static let listenFailed = Code("listenFailed")
        /// `accept(2)` failed.
        public static let acceptFailed = Code("acceptFailed")
        /// The connection could not be established (refused, unreachable).
        public static let connectFailed = Code("connectFailed")
        /// No progress within the allowed time.
        public static let timedOut = Code("timedOut")
        /// The peer reset the connection or it broke while writing.
        public static let connectionReset = Code("connectionReset")
        /// `read`/`recv` failed; the error's `errno` says why.
        public static let readFailed = Code("readFailed")
        /// `write`/`send` failed; the error's `errno` says why.
        public static let writeFailed = Code("writeFailed")
        /// `sendfile(2)` returned an error: the file could not be read or the socket not written.
        public static let sendFileFailed = Code("sendFileFailed")
        /// The socket was closed or shut down locally.
        public static let closed = Code("closed")
    }

    /// What kind of failure this is.
    public var code: Code
    /// A sentence describing the failure.
    public var message: String
    /// The `errno` reported by the system call, when one failed.
    public var errno: Int32?

    /// Creates a socket failure of kind `code`, with `message` and the `errno` of the system call
    /// that failed, when one did.
    public init(_ code: Code, _ message: String, errno: Int32? = nil) {
        self.code = code
        self.message = message
        self.errno = errno
    }

    /// Creates an error for a failed system call from the current (or given) `errno`.
    public static func posix(_ code: Code, _ operation: String, errno value: Int32 = Glibc.errno) -> NetError {
        NetError(code, "\(operation): \(String(cString: strerror(value)))", errno: value)
    }

    /// Makes a setting-up system call (`bind`, `listen`, `fcntl`, …) through `SystemCall`; its
    /// failure becomes an error of `code` that says what was being done (`context`).
    static func checking<Value: FixedWidthInteger & SignedInteger>(
        _ code: Code, _ context: @autoclosure () -> String, _ operation: StaticString, _ call: () -> Value
    ) throws(NetError) -> Value {
        switch SystemCall.result(operation, call) {
        case .success(let value): return value
        case .failure(let failure): throw NetError.posix(code, context(), errno: failure.errno)
        }
    }

    /// The code, message and errno in one line.
    public var description: String {
        if let errno { return "\(code): \(message) (errno \(errno))" }
        return "\(code): \(message)"
    }
}
