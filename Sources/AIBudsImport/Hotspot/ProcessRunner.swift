import AIBudsProcess
import Foundation

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
    /// kills it after `timeout`, or when the task is cancelled (then throws
    /// `HotspotJoinError(.cancelled)`).
    static func run(
        _ executable: URL, arguments: [String], environment: [String: String], input: Data? = nil, timeout: Duration
    ) async throws -> Result {
        let result: ChildResult
        do {
            result = try await ChildProcess.run(
                executable.path, arguments, environment: environment, input: input.map { .bytes($0.prefix(64 * 1024)) } ?? .none,
                mergeErrors: true, timeout: timeout)
        } catch is CancellationError {
            throw HotspotJoinError(.cancelled, "joining the hotspot was cancelled")
        } catch {
            throw HotspotJoinError(.toolNotFound, "could not start \(executable.path): \(error)")
        }
        return Result(
            status: result.termination.status, output: String(decoding: result.output.prefix(64 * 1024), as: UTF8.self),
            timedOut: result.timedOut)
    }
}
