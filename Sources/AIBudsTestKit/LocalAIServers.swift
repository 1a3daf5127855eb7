import AIBudsSync
import Foundation
import Testing

/// The repository's root (tests run its scripts).
public let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// The tests against the local OpenAI-compatible servers run when `AIBUDS_AI_SERVERS=1`, as the
/// whole suite (`scripts/test.sh`) sets it after `scripts/ai-servers.sh install` (llama.cpp
/// compiles for 10-30 minutes on 2 cores, once). A plain `swift test` reports them as skipped,
/// with this reason.
public let localAIServersEnabled = Testing.ConditionTrait.enabled(
    if: ProcessInfo.processInfo.environment["AIBUDS_AI_SERVERS"] == "1",
    "set AIBUDS_AI_SERVERS=1 to run the tests against the local llama.cpp, Whisper and Piper servers")

/// The local OpenAI-compatible servers (llama.cpp, faster-whisper-server, Piper), started once
/// per test process by scripts/ai-servers.sh and stopped by its watcher when the process ends.
public enum LocalAIServers {
    private static let started = Locked<Task<[String: String], any Error>?>(nil)

    /// The servers' `AIBUDS_AI_*` variables (an `OpenAICompatibleConfiguration.fromEnvironment`
    /// input, or an `aibuds` child's environment); starts them on first use. A server that cannot
    /// start fails the calling test with the script's explanation.
    public static func environment() async throws -> [String: String] {
        let task = started.withLock { task in
            if let task { return task }
            let new = Task { try await start() }
            task = new
            return new
        }
        return try await task.value
    }

    private static func start() async throws -> [String: String] {
        let directory = try makeTemporaryDirectory("ai-servers")
        let script = repositoryRoot.appendingPathComponent("scripts/ai-servers.sh")
        let pid = String(ProcessInfo.processInfo.processIdentifier)
        let result = try await runProgram(script, ["start", directory.path, "--watch", pid])
        guard result.status == 0 else {
            throw ServerStartFailure(message: "scripts/ai-servers.sh could not start the local AI servers:\n\(result.err)")
        }
        var environment: [String: String] = [:]
        for line in result.out.split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { environment[parts[0]] = parts[1] }
        }
        let urls = ["AIBUDS_AI_CHAT_URL", "AIBUDS_AI_TRANSCRIBE_URL", "AIBUDS_AI_SPEECH_URL"]
        guard environment["AIBUDS_AI_BASE_URL"] != nil || urls.allSatisfy({ environment[$0] != nil }) else {
            throw ServerStartFailure(message: "scripts/ai-servers.sh printed no server URLs: \(result.out)")
        }
        return environment
    }

    /// The servers did not start; the message is the script's.
    public struct ServerStartFailure: Error, CustomStringConvertible {
        /// What scripts/ai-servers.sh said.
        public var message: String
        /// The script's explanation.
        public var description: String { message }
    }
}
