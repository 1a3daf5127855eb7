import AIBudsAudio
import AIBudsOpenAI
import AIBudsSync
import AIBudsTestKit
import Foundation
import Testing

/// The repository's root (the tests run scripts from it).
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// Speech made by the espeak-ng program (not the provider under test), at 16 kHz mono through sox.
func spokenWAV(_ text: String, voice: String = "en-us", in directory: URL, name: String = "speech") async throws -> URL {
    let raw = directory.appendingPathComponent("\(name)-raw.wav")
    let wav = directory.appendingPathComponent("\(name).wav")
    let speak = try await runProgram(URL(fileURLWithPath: "/usr/bin/espeak-ng"), ["-v", voice, "-w", raw.path, text])
    try #require(speak.status == 0, "espeak-ng failed: \(speak.err)")
    let convert = try await runProgram(URL(fileURLWithPath: "/usr/bin/sox"), [raw.path, "-r", "16000", "-c", "1", wav.path])
    try #require(convert.status == 0, "sox failed: \(convert.err)")
    return wav
}

/// The tests against the local OpenAI-compatible servers run when `AIBUDS_AI_SERVERS=1`, as the
/// whole suite (`scripts/test.sh`) sets it after `scripts/ai-servers.sh install` (llama.cpp
/// compiles for 10-30 minutes on 2 cores, once). A plain `swift test` reports them as skipped,
/// with this reason.
let localAIServersEnabled = Testing.ConditionTrait.enabled(
    if: ProcessInfo.processInfo.environment["AIBUDS_AI_SERVERS"] == "1",
    "set AIBUDS_AI_SERVERS=1 to run the tests against the local llama.cpp, Whisper and Piper servers")

/// The local OpenAI-compatible servers (llama.cpp, faster-whisper-server, Piper), started once
/// per test process by scripts/ai-servers.sh and stopped by its watcher when the process ends.
enum LocalAIServers {
    private static let started = Locked<Task<(OpenAICompatibleConfiguration, [String: String]), any Error>?>(nil)

    /// The servers' configuration; starts them on first use. A server that cannot start fails
    /// the calling test with the script's explanation.
    static func configuration() async throws -> OpenAICompatibleConfiguration {
        try await servers().0
    }

    /// The servers' `AIBUDS_AI_*` variables, for an `aibuds` child process; starts them on first use.
    static func environment() async throws -> [String: String] {
        try await servers().1
    }

    private static func servers() async throws -> (OpenAICompatibleConfiguration, [String: String]) {
        let task = started.withLock { task in
            if let task { return task }
            let new = Task { try await start() }
            task = new
            return new
        }
        return try await task.value
    }

    private static func start() async throws -> (OpenAICompatibleConfiguration, [String: String]) {
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
        let configuration = OpenAICompatibleConfiguration.fromEnvironment(environment)
        guard configuration.chatBaseURL != nil, configuration.transcriptionBaseURL != nil, configuration.speechBaseURL != nil else {
            throw ServerStartFailure(message: "scripts/ai-servers.sh printed no server URLs: \(result.out)")
        }
        return (configuration, environment)
    }

    struct ServerStartFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
