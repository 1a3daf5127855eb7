import AIBudsAIFoundation
import AIBudsLog
import AIBudsOpenAI
import AIBudsTestKit
import Foundation
import Testing

/// The OpenAI-compatible provider against a hostile server on loopback (Python's http.server,
/// started by the test): answers that are not what they claim, that never end a line or an event,
/// that are far larger than any real answer, and error texts that echo the API key.
@Suite(.timeLimit(.minutes(3))) struct HostileOpenAIServerTests {
    /// The server: the first path segment names how it misbehaves.
    static let handler = #"""
    mode = self.path.split("/")[1]
    def head(status, kind, size=None):
        self.send_response(status)
        self.send_header("Content-Type", kind)
        if size is not None: self.send_header("Content-Length", str(size))
        else: self.send_header("Connection", "close")
        self.end_headers()
    if mode == "notjson":
        reply = b"{{{not json"
        head(200, "application/json", len(reply)); self.wfile.write(reply)
    elif mode == "noblank":
        head(200, "text/event-stream")
        line = b"data: " + b"x" * 1000 + b"\n"
        for _ in range(20000): self.wfile.write(line)
    elif mode == "noline":
        head(200, "text/event-stream")
        for _ in range(20000): self.wfile.write(b"y" * 1000)
    elif mode == "huge":
        head(200, "audio/wav", 1 << 30)
        chunk = b"\0" * (1 << 20)
        for _ in range(1024): self.wfile.write(chunk)
    elif mode == "echo":
        reply = ('{"error": {"message": "bad key ' + self.headers.get("Authorization", "") + '"}}').encode()
        head(401, "application/json", len(reply)); self.wfile.write(reply)
    """#

    /// Starts the server; returns its base URL and the server to stop.
    private func start() async throws -> (base: String, server: ScriptedHTTPServer, folder: URL) {
        let server = try await ScriptedHTTPServer.start(Self.handler)
        return (server.base, server, server.folder)
    }

    private func provider(_ base: String, _ mode: String, key: String? = nil) -> OpenAICompatibleProvider {
        let url = "\(base)/\(mode)/v1"
        return OpenAICompatibleProvider(configuration: OpenAICompatibleConfiguration(
            chatBaseURL: url, transcriptionBaseURL: url, speechBaseURL: url, apiKey: key, timeout: 60))
    }

    private func chatError(_ provider: OpenAICompatibleProvider) async -> AIError? {
        do {
            for try await _ in provider.streamChat([AIChatMessage(role: .user, content: "hi")], options: AIChatOptions()) {}
            return nil
        } catch {
            return AIError.from(error)
        }
    }

    @Test func malformedChatAnswersAreTypedErrorsNotSilence() async throws {
        let (base, server, folder) = try await start()
        defer { server.stop(); try? FileManager.default.removeItem(at: folder) }
        // A 200 that is not an event stream at all: before, an empty reply and success.
        let notJSON = await chatError(provider(base, "notjson"))
        #expect(notJSON?.code == .invalidResponse, "\(String(describing: notJSON))")
        #expect(notJSON?.message.contains("without a chat completion stream") == true)
        // Data lines with no blank line between them (one event that never ends): stopped at 1 MiB,
        // not read to the end (20 MB) or held in memory.
        let clock = ContinuousClock()
        let started = clock.now
        let noBlank = await chatError(provider(base, "noblank"))
        #expect(noBlank?.code == .invalidResponse && noBlank?.message.contains("event over") == true, "\(String(describing: noBlank))")
        // A line that never ends.
        let noLine = await chatError(provider(base, "noline"))
        #expect(noLine?.code == .invalidResponse && noLine?.message.contains("line over") == true, "\(String(describing: noLine))")
        #expect(clock.now - started < .seconds(30), "the stream is refused as soon as it goes over, not at the timeout")
    }

    @Test func aHugeSpeechAnswerIsRefusedAtItsLimit() async throws {
        let (base, server, folder) = try await start()
        defer { server.stop(); try? FileManager.default.removeItem(at: folder) }
        do {
            _ = try await provider(base, "huge").synthesize("hi", language: "en", voice: nil)
            Issue.record("a 1 GiB answer was accepted")
        } catch {
            let failure = AIError.from(error)
            #expect(failure.code == .invalidResponse && failure.message.contains("larger than"), "\(failure)")
        }
    }

    @Test func anEchoedAPIKeyNeverReachesAMessage() async throws {
        let (base, server, folder) = try await start()
        defer { server.stop(); try? FileManager.default.removeItem(at: folder) }
        let key = "sk-hostile-test-\(UUID().uuidString.prefix(8))"
        let failure = await chatError(provider(base, "echo", key: key))
        #expect(failure?.code == .serverError, "\(String(describing: failure))")
        #expect(failure?.message.contains(key) == false, "\(String(describing: failure?.message))")
        #expect(failure?.message.contains(LogRedactor.replacement) == true)
    }
}
