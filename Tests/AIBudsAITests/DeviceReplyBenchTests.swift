import AIBudsTestKit
import Foundation
import Testing

/// `aibuds bench ai-reply` against the local servers: a question spoken into emulated glasses'
/// microphone over the ble link is answered on their speaker, and the command says how long after
/// the end of the question the first reply frame played.
@Suite(localAIServersEnabled, .timeLimit(.minutes(5))) struct DeviceReplyBenchTests {
    @Test(.enabled(if: DeviceAIRecordingTests.executable != nil, "the aibuds executable is not built"))
    func aSpokenQuestionIsAnsweredOnTheGlassesSpeaker() async throws {
        let aibuds = try #require(DeviceAIRecordingTests.executable)
        let directory = try makeTemporaryDirectory("ai-reply-bench")
        let question = try await spokenWAV("What is the capital of France?", in: directory, name: "question")
        let environment = try await LocalAIServers.environment()
        let result = try await runProgram(aibuds, [
            "bench", "ai-reply", "--input", question.path, "--runs", "1", "--link", "ble", "--provider", "openai",
        ], environment: environment)
        #expect(result.status == 0, "\(result.out)\(result.err)")
        let line = try #require(result.out.split(separator: "\n").first { $0.hasPrefix("run 1: ") }, "\(result.out)")
        let seconds = try #require(Double(line.dropFirst("run 1: ".count).dropLast(" s".count)), "\(line)")
        // After the end of speech the recognizer waits for 0.6 s of silence; the reply cannot be earlier.
        #expect(seconds > 0.6, "\(line)")
        #expect(result.out.contains("end of speech to first reply audio on the device p50"))
    }
}
