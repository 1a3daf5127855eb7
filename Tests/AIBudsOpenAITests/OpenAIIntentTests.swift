import AIBudsAIFoundation
import AIBudsOpenAI
import AIBudsTestKit
import Foundation
import Testing

/// Intents through a chat server, against servers on loopback that speak each dialect of
/// `response_format` (OpenAI's `json_schema`; llama-cpp-python's `json_object` with a schema,
/// which answers any other with a 500) or answer no intent at all.
@Suite(.timeLimit(.minutes(2))) struct OpenAIIntentTests {
    /// The server: the first path segment says which dialect it takes; each request is logged.
    static let handler = #"""
    import json
    mode = self.path.split("/")[1]
    request = json.loads(body)
    kind = request.get("response_format", {}).get("type")
    with open(self.server_folder + "/requests.log", "a") as log: log.write(kind + "\n")
    accepted = {"openai": "json_schema", "llama": "json_object"}.get(mode, kind)
    if kind != accepted:
        reply = json.dumps({"detail": "response_format.type: Input should be 'text' or 'json_object'"}).encode()
        self.send_response(500); self.send_header("Content-Length", str(len(reply))); self.end_headers(); self.wfile.write(reply)
        return
    schema = request["response_format"]["json_schema"]["schema"] if kind == "json_schema" else request["response_format"]["schema"]
    assert "setVolume" in schema["properties"]["action"]["enum"]
    content = {"garbage": "{not an intent", "unknown": '{"action":"fly"}'}.get(mode, '{"action":"setVolume","level":35}')
    self.send_response(200); self.send_header("Content-Type", "text/event-stream"); self.send_header("Connection", "close"); self.end_headers()
    for piece in [content[:10], content[10:]]:
        self.wfile.write(("data: " + json.dumps({"choices": [{"delta": {"content": piece}}]}) + "\n\n").encode())
    self.wfile.write(b"data: [DONE]\n\n")
    """#

    private func provider(_ base: String, _ mode: String) -> OpenAICompatibleProvider {
        OpenAICompatibleProvider(configuration: OpenAICompatibleConfiguration(chatBaseURL: "\(base)/\(mode)/v1", timeout: 30))
    }

    @Test func eachDialectOfResponseFormatGivesTheIntentAndTheChoiceIsKept() async throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await ScriptedHTTPServer.start(Self.handler.replacingOccurrences(of: "self.server_folder", with: "\"\(folder.path)\""))
        defer { server.stop() }
        for mode in ["openai", "llama"] {
            let provider = provider(server.base, mode)
            #expect(provider.capabilities.contains(.intents))
            #expect(try await provider.recognizeIntent("volume to thirty five", language: "en") == AIIntent(.setVolume, level: 35))
            #expect(try await provider.recognizeIntent("again", language: "en") == AIIntent(.setVolume, level: 35))
        }
        // OpenAI's form first; where it is refused, the other, and from then on only that.
        let log = try String(contentsOf: folder.appendingPathComponent("requests.log"), encoding: .utf8)
        #expect(log.split(separator: "\n") == ["json_schema", "json_schema", "json_schema", "json_object", "json_object"])
    }

    @Test func anAnswerThatIsNoIntentIsATypedError() async throws {
        let folder = try makeTemporaryDirectory()
        let server = try await ScriptedHTTPServer.start(Self.handler.replacingOccurrences(of: "self.server_folder", with: "\"\(folder.path)\""))
        defer { server.stop() }
        for mode in ["garbage", "unknown"] {
            let error = await #expect(throws: AIError.self) { try await provider(server.base, mode).recognizeIntent("hi", language: "en") }
            #expect(error?.code == .invalidResponse, "\(mode): \(String(describing: error))")
        }
    }
}
