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
            "bench", "ai-reply", "--input", question.path, "--runs", "1", "--link", "ble", "--provider", "openai", "--json",
        ], environment: environment)
        #expect(result.status == 0, "\(result.out)\(result.err)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any], "\(result.out)")
        let seconds = try #require(summary["seconds"] as? [Double], "\(result.out)")
        #expect(seconds.count == 1 && summary["link"] as? String == "ble")
        // After the end of speech the recognizer waits for 0.6 s of silence; the reply cannot be earlier.
        #expect(seconds.allSatisfy { $0 > 0.6 }, "\(result.out)")
        #expect(summary["p50"] as? Double == seconds.first)
    }
}
