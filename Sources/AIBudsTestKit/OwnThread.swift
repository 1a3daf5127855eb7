import AIBudsProcess
import AIBudsSync
import Foundation

// Tests must never block Swift concurrency's threads: on Linux the cooperative pool has one
// thread per core (two on CI) and shares them with `DispatchQueue.global()`, without adding
// threads when they block. One test waiting for a process, sleeping in `usleep` or blocking in a
// socket read there stops every other test's tasks, timers and completions for that long, which
// is what turned tight timing checks flaky when the whole suite ran. Blocking work goes to a
// thread of its own through these helpers.

/// Runs blocking `body` on a thread of its own and returns its result, leaving Swift
/// concurrency's threads free meanwhile.
public func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await runOnOwnThread(name: "aibuds-test-blocking") { _ in try body() }
}

/// What a program run by ``runProgram(_:_:environment:)`` printed, and how it ended.
public struct ProgramResult: Sendable {
    /// The exit status (or the number of the signal that ended it).
    public var status: Int32
    /// Whether it exited (rather than being ended by a signal).
    public var exited: Bool
    /// Its standard output, as bytes.
    public var output: Data
    /// Its standard error.
    public var err: String

    /// Its standard output, as text.
    public var out: String { String(decoding: output, as: UTF8.self) }
}

/// Runs `executable` with `arguments` (and `environment` added to this process's) to its end,
/// waiting on a thread of its own; returns its exit status and output.
///
/// At most one program per core runs this way at once: the suite starts every test at the same
/// moment, and dozens of program starts at once (each `aibuds` start costs a fifth of a second of
/// CPU) took the cores from every other test for seconds.
public func runProgram(
    _ executable: URL, _ arguments: [String], environment: [String: String] = [:]
) async throws -> ProgramResult {
    await programSlots.wait()
    defer { programSlots.signal() }
    let program = try RunningProgram(executable, arguments, environment: environment)
    return try await onOwnThread { program.finish() }
}

/// The slots of ``runProgram(_:_:environment:)``.
private let programSlots = AsyncSemaphore(max(2, ProcessInfo.processInfo.activeProcessorCount))

/// A counting semaphore whose waiters suspend instead of blocking a thread; served in order.
final class AsyncSemaphore: Sendable {
    private let state: Locked<(available: Int, waiters: [CheckedContinuation<Void, Never>])>

    init(_ count: Int) {
        state = Locked((count, []))
    }

    /// Takes a slot, waiting for one.
    func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                guard state.available > 0, state.waiters.isEmpty else {
                    state.waiters.append(continuation)
                    return false
                }
                state.available -= 1
                return true
            }
            if now { continuation.resume() }
        }
    }

    /// Gives a slot back (to the first waiter, if any).
    func signal() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiters.isEmpty else {
                state.available += 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}

/// A program started with its output piped to this process (through ``/AIBudsProcess/ChildProcess``, so it holds
/// no other test's descriptors and ends on SIGTERM); its standard error is read from the start,
/// so that it never blocks on a full pipe.
public final class RunningProgram: Sendable {
    private let child: ChildProcess
    private let errors: OutputReader

    /// The process identifier.
    public var pid: Int32 { child.pid }
    /// Whether the process is still running.
    public var isRunning: Bool { child.isRunning }

    /// Starts `executable` with `arguments`, `environment` added to this process's.
    public init(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws {
        child = try ChildProcess(
            executable.path, arguments, environment: ProcessInfo.processInfo.environment.merging(environment) { $1 })
        errors = OutputReader(child.standardError!)
    }

    /// The next line of standard output with its newline (without one only when the output ends
    /// there), or nil at the end; blocking, so call it through ``onOwnThread(_:)``.
    public func readLine() -> String? {
        var line = Data()
        while true {
            let byte = child.standardOutput!.readData(ofLength: 1)
            guard let first = byte.first else { return line.isEmpty ? nil : String(decoding: line, as: UTF8.self) }
            line.append(first)
            if first == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
        }
    }

    /// Sends SIGTERM if it is still running.
    public func terminate() {
        child.terminate()
    }

    /// Sends SIGINT if it is still running.
    public func interrupt() {
        child.interrupt()
    }

    /// Sends SIGKILL if it is still running.
    public func kill() {
        child.kill()
    }

    /// Suspends until the program has ended (without reading its output).
    public func ended() async -> ChildTermination {
        await child.ended()
    }

    /// Reads the rest of both outputs and waits for the exit; `alreadyRead` is put before the rest
    /// of standard output. Blocking, so call it through ``onOwnThread(_:)``.
    public func finish(alreadyRead: String = "") -> ProgramResult {
        let output = child.standardOutput!.readDataToEndOfFile()
        let termination = child.waitUntilExit()
        return ProgramResult(
            status: termination.status, exited: termination.exited,
            output: Data(alreadyRead.utf8) + output, err: String(decoding: errors.wait(), as: UTF8.self))
    }
}

/// Reads a file handle to its end on a thread of its own.
private final class OutputReader: @unchecked Sendable {
    // `data` is written by the reading thread before it signals `done`, and read after `wait`.
    private var data = Data()
    private let done = DispatchSemaphore(value: 0)

    init(_ handle: FileHandle) {
        let thread = Thread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
        thread.name = "aibuds-test-output"
        thread.start()
    }

    /// Waits for the end of the output and returns it (once).
    func wait() -> Data {
        done.wait()
        return data
    }
}
