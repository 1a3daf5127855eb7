#if canImport(Glibc)
import Glibc
#endif

/// System-call helpers shared by `TCPListener` and `TCPConnection`.
enum TCPSocketSupport {
    /// Which event `waitFor` waits for.
    enum Readiness {
        case readable
        case writable
    }

    /// Ignores `SIGPIPE` once per process: `sendfile(2)` has no `MSG_NOSIGNAL`, and a broken pipe
    /// must surface as `EPIPE`, not kill the process.
    static let ignoreBrokenPipe: Void = {
        _ = signal(SIGPIPE, SIG_IGN)
    }()

    /// Creates a non-blocking, close-on-exec TCP socket for the address family.
    static func makeSocket(family: Int32) throws -> Int32 {
        _ = ignoreBrokenPipe
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        switch SystemCall.result("socket", { socket(family, type, 0) }) {
        case .success(let fd): return fd
        case .failure(let failure): throw NetError.posix(.socketFailed, "socket", errno: failure.errno)
        }
    }

    /// Makes an accepted socket non-blocking and close-on-exec.
    static func configureAccepted(_ fd: Int32) throws {
        let flags = try NetError.checking(.socketFailed, "fcntl", "fcntl") { fcntl(fd, F_GETFL) }
        _ = try NetError.checking(.socketFailed, "fcntl", "fcntl") { fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
        _ = try NetError.checking(.socketFailed, "fcntl", "fcntl") { fcntl(fd, F_SETFD, FD_CLOEXEC) }
    }

    /// Sets an integer socket option.
    static func setOption(_ fd: Int32, level: Int32, name: Int32, value: Int32) {
        var value = value
        _ = setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Milliseconds for `poll(2)`: -1 waits forever; anything positive rounds up to at least 1 ms.
    static func pollMilliseconds(_ timeout: Duration?) -> Int32 {
        guard let timeout else { return -1 }
        if timeout <= .zero { return 0 }
        let (seconds, attoseconds) = timeout.components
        let millis = seconds.multipliedReportingOverflow(by: 1000)
        if millis.overflow || millis.partialValue >= Int64(Int32.max) { return Int32.max }
        let total = millis.partialValue + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(min(total, Int64(Int32.max)))
    }

    /// Waits until `fd` is ready, the timeout passes (`timedOut`), or it fails.
    ///
    /// Hang-up and error conditions count as ready: the next system call reports them.
    static func waitFor(_ readiness: Readiness, fd: Int32, timeout: Duration?, operation: String) throws {
        var descriptor = pollfd(fd: fd, events: Int16(readiness == .readable ? POLLIN : POLLOUT), revents: 0)
        let millis = pollMilliseconds(timeout)
        switch SystemCall.result("poll", { poll(&descriptor, 1, millis) }) {
        case .success(0): throw NetError(.timedOut, "\(operation) timed out after \(timeout ?? .zero)")
        case .success: return
        case .failure(let failure): throw NetError.posix(.readFailed, "poll", errno: failure.errno)
        }
    }

    /// Maps the errno of a failed read or write to a code: resets are `connectionReset`.
    static func ioError(_ fallback: NetError.Code, _ operation: String, errno value: Int32 = errno) -> NetError {
        switch value {
        case ECONNRESET, EPIPE, ECONNABORTED, ENOTCONN, ETIMEDOUT:
            return NetError.posix(.connectionReset, operation, errno: value)
        case EBADF:
            return NetError.posix(.closed, operation, errno: value)
        default:
            return NetError.posix(fallback, operation, errno: value)
        }
    }
}
