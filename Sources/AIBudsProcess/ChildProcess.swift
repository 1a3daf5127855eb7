import AIBudsSync
import CSpawn
import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where a child's standard output or standard error goes.
public enum ChildOutput: Sendable, Equatable {
    /// To `/dev/null`.
    case discard
    /// Into a pipe that this process reads through ``ChildProcess/standardOutput`` or
    /// ``ChildProcess/standardError``.
    case capture
    /// To this process's own stream of the same number.
    case inherit
    /// Into the file at this path, created or truncated.
    case file(String)
    /// Standard error only: wherever standard output goes.
    case sameAsOutput
}

/// What a child reads on its standard input.
public enum ChildInput: Sendable, Equatable {
    /// `/dev/null`: it reads end-of-file at once.
    case none
    /// These bytes, written from a thread of this process's own, then end-of-file.
    case bytes(Data)
    /// The file at this path.
    case file(String)
}

/// How a child ended.
public struct ChildTermination: Sendable, Equatable, CustomStringConvertible {
    /// Its exit status, or the number of the signal that ended it.
    public var status: Int32
    /// Whether it exited (rather than being ended by a signal).
    public var exited: Bool

    /// How a child ended: exit `status`, or signal `status` when not `exited`.
    public init(status: Int32, exited: Bool) {
        self.status = status
        self.exited = exited
    }

    /// Whether it exited with status 0.
    public var succeeded: Bool { exited && status == 0 }

    public var description: String { exited ? "exit status \(status)" : "signal \(status)" }
}

/// A child that could not be started: the program and the system's reason.
public struct ChildProcessError: Error, Sendable, CustomStringConvertible {
    /// The program asked for.
    public var executable: String
    /// The `errno` value of the failed step.
    public var code: Int32

    public var description: String { "cannot start \(executable): \(String(cString: strerror(code)))" }
}

/// A child process started safely from a multithreaded program, and reaped by a thread of its own.
///
/// Unlike Foundation's `Process` on Linux, the child gets none of this process's other
/// descriptors (a pipe or socket another thread opened at the same moment would otherwise stay
/// open in it, and whoever waits for that pipe's end waits as long as the child lives), an empty
/// signal mask and default signal actions (threads of the Swift runtime block signals, which a
/// child would inherit and then ignore SIGTERM), and waiting for it never needs a run loop or
/// Swift concurrency's threads: ``ended()`` suspends, ``waitUntilExit()`` blocks only its caller.
public final class ChildProcess: Sendable {
    /// The child's process identifier; reserved for it until it has been reaped.
    public let pid: pid_t
    /// The program, as given.
    public let executable: String
    /// The read end of the child's standard output, when it is ``ChildOutput/capture``d.
    public let standardOutput: FileHandle?
    /// The read end of the child's standard error, when it is ``ChildOutput/capture``d.
    public let standardError: FileHandle?

    private struct State {
        var termination: ChildTermination?
        var waiters: [CheckedContinuation<ChildTermination, Never>] = []
    }

    private let state = Locked(State())
    private let reaped = DispatchGroup()

    /// Starts `executable` (a path, or a name looked up in `PATH`) with `arguments`. The
    /// environment is `environment` exactly, or this process's when nil; `directory` is the
    /// child's working directory (this process's when nil).
    public init(
        _ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil, directory: String? = nil,
        input: ChildInput = .none, output: ChildOutput = .capture, errors: ChildOutput = .capture
    ) throws(ChildProcessError) {
        self.executable = executable
        var opened = Descriptors()
        do throws(ChildProcessError) {
            let inputFD: Int32
            var inputWriter: Int32 = -1
            switch input {
            case .none: inputFD = -1
            case .file(let path): inputFD = try opened.open(path, O_RDONLY, executable)
            case .bytes:
                let ends = try opened.pipe(executable)
                inputFD = ends.read
                inputWriter = ends.write
            }
            let (outputFD, outputReader) = try opened.destination(output, standard: 1, executable)
            let (errorFD, errorReader): (Int32, Int32) =
                errors == .sameAsOutput ? (outputFD, -1) : try opened.destination(errors, standard: 2, executable)

            var child: pid_t = 0
            let status = Self.withCStrings([executable] + arguments) { argv in
                Self.withCStrings(Self.environmentLines(environment)) { envp in
                    cspawn_start(executable, argv, envp, directory, inputFD, outputFD, errorFD, &child)
                }
            }
            guard status == 0 else { throw ChildProcessError(executable: executable, code: status) }
            pid = child
            opened.closeChildEnds(keeping: [inputWriter, outputReader, errorReader])
            standardOutput = outputReader >= 0 ? FileHandle(fileDescriptor: outputReader, closeOnDealloc: true) : nil
            standardError = errorReader >= 0 ? FileHandle(fileDescriptor: errorReader, closeOnDealloc: true) : nil
            if inputWriter >= 0, case .bytes(let bytes) = input { Self.write(bytes, to: inputWriter) }
        } catch {
            opened.closeAll()
            throw error
        }
        startReaper()
    }

    /// How the child ended, or nil while it runs.
    public var termination: ChildTermination? { state.withLock { $0.termination } }

    /// Whether the child is still running (or ended and is not reaped yet).
    public var isRunning: Bool { termination == nil }

    /// Sends signal `number` unless the child has been reaped (so never to a reused pid); returns
    /// whether it was sent.
    @discardableResult public func signal(_ number: Int32) -> Bool {
        state.withLock { state in
            state.termination == nil && Glibc.kill(pid, number) == 0
        }
    }

    /// Sends SIGTERM while it runs; returns whether it was sent.
    @discardableResult public func terminate() -> Bool { signal(SIGTERM) }

    /// Sends SIGINT while it runs, as Ctrl-C would; returns whether it was sent.
    @discardableResult public func interrupt() -> Bool { signal(SIGINT) }

    /// Sends SIGKILL while it runs; returns whether it was sent.
    @discardableResult public func kill() -> Bool { signal(SIGKILL) }

    /// Suspends until the child has ended, without blocking a thread.
    public func ended() async -> ChildTermination {
        await withCheckedContinuation { (continuation: CheckedContinuation<ChildTermination, Never>) in
            let ended = state.withLock { state -> ChildTermination? in
                if let termination = state.termination { return termination }
                state.waiters.append(continuation)
                return nil
            }
            if let ended { continuation.resume(returning: ended) }
        }
    }

    /// Blocks the calling thread until the child has ended: never call it on Swift concurrency's
    /// threads (use ``ended()`` there).
    public func waitUntilExit() -> ChildTermination {
        reaped.wait()
        return state.withLock { $0.termination! }
    }

    /// Waits for the exit on a thread of its own, then reaps the child and wakes every waiter.
    /// The child is reaped under the lock that ``signal(_:)`` takes, so a signal never reaches
    /// another process that reused the pid.
    private func startReaper() {
        reaped.enter()
        let (pid, state, reaped) = (self.pid, self.state, self.reaped)
        let thread = Thread {
            _ = cspawn_wait_exit(pid)
            let (termination, waiters) = state.withLock { state in
                var status: Int32 = 0
                var signalled: Int32 = 0
                _ = cspawn_reap(pid, &status, &signalled)
                let termination = ChildTermination(status: status, exited: signalled == 0)
                state.termination = termination
                defer { state.waiters = [] }
                return (termination, state.waiters)
            }
            for waiter in waiters { waiter.resume(returning: termination) }
            reaped.leave()
        }
        thread.name = "aibuds-child-\(pid)"
        thread.start()
    }

    /// `SIGPIPE` ignored once per process: a child that exits before reading all its input must
    /// make the write fail with `EPIPE`, not kill this process (children get default actions back).
    private static let ignoreBrokenPipes: Void = { _ = Glibc.signal(SIGPIPE, SIG_IGN) }()

    /// Writes `bytes` to `descriptor` from a thread of its own, then closes it.
    private static func write(_ bytes: Data, to descriptor: Int32) {
        _ = ignoreBrokenPipes
        let thread = Thread {
            let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            try? handle.write(contentsOf: bytes)
            try? handle.close()
        }
        thread.name = "aibuds-child-input"
        thread.start()
    }

    /// `environment` as `NAME=value` lines, or this process's own when nil.
    private static func environmentLines(_ environment: [String: String]?) -> [String] {
        (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
    }

    /// Calls `body` with `strings` as a NULL-terminated array of C strings.
    private static func withCStrings<T>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> T) -> T {
        let pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) } + [nil]
        defer { pointers.forEach { free($0) } }
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }
}

/// The descriptors opened for one start: the child's ends are closed in this process once the
/// child has them; on a failure every one is closed.
private struct Descriptors {
    private var all: [Int32] = []

    mutating func open(_ path: String, _ flags: Int32, _ executable: String) throws(ChildProcessError) -> Int32 {
        let fd = Glibc.open(path, flags | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw ChildProcessError(executable: executable, code: errno) }
        all.append(fd)
        return fd
    }

    mutating func pipe(_ executable: String) throws(ChildProcessError) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        let status = cspawn_pipe(&ends)
        guard status == 0 else { throw ChildProcessError(executable: executable, code: status) }
        all += ends
        return (ends[0], ends[1])
    }

    /// The child's descriptor for an output and, when captured, this process's read end.
    mutating func destination(_ output: ChildOutput, standard: Int32, _ executable: String) throws(ChildProcessError) -> (Int32, Int32) {
        switch output {
        case .discard, .sameAsOutput: return (-1, -1)
        case .inherit: return (standard, -1)
        case .file(let path): return (try open(path, O_WRONLY | O_CREAT | O_TRUNC, executable), -1)
        case .capture:
            let ends = try pipe(executable)
            return (ends.write, ends.read)
        }
    }

    /// Closes every descriptor but `keeping` (this process's ends).
    mutating func closeChildEnds(keeping: [Int32]) {
        for fd in all where !keeping.contains(fd) { close(fd) }
        all = []
    }

    mutating func closeAll() {
        all.forEach { close($0) }
        all = []
    }
}
