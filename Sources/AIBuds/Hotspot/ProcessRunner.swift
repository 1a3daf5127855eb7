import AIBudsSync
import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a program to completion with a time limit, collecting what it prints.
enum ProcessRunner {
    /// What a finished run produced.
    struct Result: Sendable {
        /// The exit status (or the terminating signal's number).
        var status: Int32
        /// Standard output and standard error, joined (at most 64 KiB).
        var output: String
        /// Whether the run was stopped because it exceeded its time limit.
        var timedOut: Bool
    }

    /// Runs `executable` with `arguments` and `input` (at most 64 KiB) on its standard input;
    /// stops it after `timeout`, or when the task is cancelled (then throws
    /// `HotspotJoinError(.cancelled)`).
    static func run(
        _ executable: URL, arguments: [String], environment: [String: String], input: Data? = nil, timeout: Duration
    ) async throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        // The input fits the pipe's buffer, so it is written before the program starts and the
        // write end closed after, so the program reads end-of-file after it.
        let inputPipe = input.map { _ in Pipe() }
        if let inputPipe, let input {
            try inputPipe.fileHandleForWriting.write(contentsOf: input.prefix(64 * 1024))
            process.standardInput = inputPipe
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        let running = RunningProcess(process)

        let status: Int32 = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int32, any Error>) in
                process.terminationHandler = { finished in continuation.resume(returning: finished.terminationStatus) }
                do {
                    try process.run()
                } catch {
                    process.terminationHandler = nil
                    continuation.resume(throwing: HotspotJoinError(
                        .toolNotFound, "could not start \(executable.path): \(error.localizedDescription)"))
                    return
                }
                running.started()
                try? inputPipe?.fileHandleForWriting.close()
                DispatchQueue.global().asyncAfter(deadline: .now() + timeout.timeInterval) {
                    running.stop(reason: .timedOut)
                }
            }
        } onCancel: {
            running.stop(reason: .cancelled)
        }
        // Read on a plain thread (not the cooperative pool): close our copy of the write end first,
        // so the read ends once the program and its children have exited.
        try? pipe.fileHandleForWriting.close()
        let data = await withCheckedContinuation { (continuation: CheckedContinuation<Data, Never>) in
            DispatchQueue.global().async {
                let data = (try? pipe.fileHandleForReading.readToEnd()) ?? Data()
                continuation.resume(returning: data)
            }
        }
        let output = String(decoding: data.prefix(64 * 1024), as: UTF8.self)
        switch running.stopReason {
        case .cancelled?: throw HotspotJoinError(.cancelled, "joining the hotspot was cancelled")
        case .timedOut?: return Result(status: status, output: output, timedOut: true)
        case nil: return Result(status: status, output: output, timedOut: false)
        }
    }
}

/// A process that a timer or a cancellation may stop, at most once and only while it runs.
private final class RunningProcess: Sendable {
    enum StopReason: Sendable { case timedOut, cancelled }
    private struct State { var started = false; var exited = false; var stop: StopReason? }
    // Every use of the process below is guarded by `state`.
    private let process: Process
    private let state = Locked(State())

    init(_ process: Process) { self.process = process }

    /// Why the process was stopped, if it was.
    var stopReason: StopReason? { state.withLock { $0.stop } }

    /// Marks the process started; stops it at once if a cancellation came first.
    func started() {
        state.withLock { state in
            state.started = true
            if state.stop != nil { kill() }
        }
    }

    /// Sends SIGKILL: the child may have inherited a signal mask that blocks SIGTERM (threads of the
    /// Swift runtime block most signals, and `Process` does not reset the mask).
    private func kill() {
        _ = Glibc.kill(process.processIdentifier, SIGKILL)
    }

    /// Stops the process (when it has started and is still running) and remembers why.
    func stop(reason: StopReason) {
        state.withLock { state in
            guard state.stop == nil, !state.exited else { return }
            if state.started {
                guard process.isRunning else { state.exited = true; return }
                kill()
            }
            state.stop = reason
        }
    }
}
