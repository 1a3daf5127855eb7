import AIBudsSync
import Dispatch
import Foundation

/// What a program run to its end by ``ChildProcess/run(_:_:environment:directory:input:mergeErrors:timeout:)`` printed, and how it ended.
public struct ChildResult: Sendable {
    /// How it ended.
    public var termination: ChildTermination
    /// Its standard output (with standard error after it was merged in).
    public var output: Data
    /// Its standard error (empty when merged into standard output).
    public var errors: Data
    /// Whether it was killed because it ran past its time limit.
    public var timedOut: Bool

    /// Its standard output as UTF-8 text.
    public var text: String { String(decoding: output, as: UTF8.self) }
    /// Its standard error as UTF-8 text.
    public var errorText: String { String(decoding: errors, as: UTF8.self) }
}

extension ChildProcess {
    /// Runs a program to its end and collects both outputs, suspending meanwhile without blocking
    /// any thread of Swift concurrency. Past `timeout`, or when the task is cancelled, the child
    /// gets SIGKILL; a cancelled run throws `CancellationError` once the child is gone. The
    /// outputs are read until their end, so a grandchild that keeps them open delays the return.
    public static func run(
        _ executable: String, _ arguments: [String] = [], environment: [String: String]? = nil, directory: String? = nil,
        input: ChildInput = .none, mergeErrors: Bool = false, timeout: Duration? = nil
    ) async throws -> ChildResult {
        let child = try ChildProcess(
            executable, arguments, environment: environment, directory: directory, input: input,
            output: .capture, errors: mergeErrors ? .sameAsOutput : .capture)
        let expired = Locked(false)
        let timer = timeout.map { limit in
            let item = DispatchWorkItem { if child.kill() { expired.withLock { $0 = true } } }
            childTimers.asyncAfter(deadline: .now() + Double(limit.components.seconds)
                + Double(limit.components.attoseconds) * 1e-18, execute: item)
            return item
        }
        let (termination, output, errors) = await withTaskCancellationHandler {
            async let output = child.standardOutput.readToEnd()
            async let errors = child.standardError.readToEnd()
            let termination = await child.ended()
            return (termination, await output, await errors)
        } onCancel: {
            child.kill()
        }
        timer?.cancel()
        let timedOut = expired.withLock { $0 }
        try Task.checkCancellation()
        return ChildResult(termination: termination, output: output, errors: errors, timedOut: timedOut)
    }
}

/// The queue of the runs' time limits: a queue of its own, whose thread is there when the limit
/// comes (the global queues have one thread per core, which blocking work can hold for seconds).
private let childTimers = DispatchQueue(label: "aibuds.child-timeouts")

extension FileHandle? {
    /// Everything up to the end, read on a thread of its own; empty for nil.
    fileprivate func readToEnd() async -> Data {
        guard let handle = self else { return Data() }
        return await runOnOwnThread(name: "aibuds-child-output") { handle.readDataToEndOfFile() }
    }
}
