import AIBudsAIFoundation
import AIBudsAudio
import AIBudsOpenAI
import AIBudsTestKit
import Foundation
import Testing

/// The OpenAI-compatible provider against real local servers: llama.cpp's server (SmolLM2-135M),
/// faster-whisper-server (Whisper tiny.en) and Piper, started once by scripts/ai-servers.sh.
@Suite(localAIServersEnabled, .timeLimit(.minutes(10))) struct OpenAIProviderTests {
    private func provider() async throws -> OpenAICompatibleProvider {
        OpenAICompatibleProvider(configuration: OpenAICompatibleConfiguration.fromEnvironment(try await LocalAIServers.environment()))
    }

    @Test func whisperTranscribesSpeech() async throws {
        let provider = try await provider()
        // Whisper tiny.en hears espeak-ng's robotic voice well on plain questions and poorly on
        // tongue-twisters ("the roundfark lazy nog" for the quick brown fox).
        let wav = try await spokenWAV("What is the capital of France?", in: try makeTemporaryDirectory())
        let transcript = try await provider.transcribe(try WAVFile.read(from: wav), language: "en")
        let words = Set(transcript.words)
        #expect(words.isSuperset(of: ["what", "capital", "france"]), "got '\(transcript.text)'")
    }

    @Test func llamaCppAnswersAnIntentThatFollowsTheSchema() async throws {
        // llama-cpp-python takes only `json_object` with a schema: the provider finds that out
        // and the model's sampling is held to the schema, so whatever SmolLM2 135M makes of the
        // words (docs/benchmarks.md has its accuracy) decodes as an intent.
        let provider = try await provider()
        let intent = try await provider.recognizeIntent("Could you snap a picture?", language: "en")
        #expect(intent == AIIntent(.takePhoto), "one of the instructions' own examples")
        for utterance in ["navigate to the old town hall", "I had pasta for lunch"] {
            _ = try await provider.recognizeIntent(utterance, language: "en")
        }
    }

    @Test func chatStreamsTokenByToken() async throws {
        let provider = try await provider()
        var tokens: [String] = []
        let messages = [
            AIChatMessage(role: .system, content: "You are a helpful assistant."),
            AIChatMessage(role: .user, content: "What is the capital of France?"),
        ]
        for try await token in provider.streamChat(messages, options: AIChatOptions(maxTokens: 40)) { tokens.append(token) }
        #expect(tokens.count > 3, "one piece is not a stream: \(tokens)")
        #expect(tokens.joined().lowercased().contains("paris"), "got '\(tokens.joined())'")
    }

    @Test func piperSpeaksIntoAWAV() async throws {
        let provider = try await provider()
        let audio = try await provider.synthesize("Turn left on Baker Street.", language: "en", voice: nil)
        #expect(audio.sampleRate == 22_050 && audio.channels == 1)
        #expect(audio.duration > 0.8 && audio.duration < 5)
        // What Piper said is what Whisper hears.
        let speech = try await provider.transcribe(try audio.speechFormat(), language: "en")
        #expect(Set(speech.words).isSuperset(of: ["left", "baker"]), "got '\(speech.text)'")
    }

    @Test func serverAndTransportFailuresAreTyped() async throws {
        let configuration = OpenAICompatibleConfiguration.fromEnvironment(try await LocalAIServers.environment())
        var wrongPath = configuration
        wrongPath.speechBaseURL = (configuration.speechBaseURL ?? "") + "/nowhere"
        let notFound = await #expect(throws: AIError.self) {
            try await OpenAICompatibleProvider(configuration: wrongPath).synthesize("hi", language: "en", voice: nil)
        }
        #expect(notFound?.code == .serverError && notFound?.httpStatus == 404)

        let empty = await #expect(throws: AIError.self) {
            try await OpenAICompatibleProvider(configuration: configuration).synthesize(" ", language: "en", voice: nil)
        }
        #expect(empty?.httpStatus == 400)

        // A port nothing listens on: bind one, learn its number, close it.
        let closed = OpenAICompatibleConfiguration(chatBaseURL: "http://127.0.0.1:\(try unusedPort())/v1")
        var stream = OpenAICompatibleProvider(configuration: closed)
            .streamChat([AIChatMessage(role: .user, content: "hi")], options: AIChatOptions()).makeAsyncIterator()
        let refused = await #expect(throws: AIError.self) { _ = try await stream.next() }
        #expect(refused?.code == .serverUnreachable)

        let noTranscription = OpenAICompatibleProvider(configuration: OpenAICompatibleConfiguration())
        #expect(noTranscription.capabilities.isEmpty)
        await #expect(throws: AIError(.capabilityUnsupported, "no transcription URL is configured")) {
            try await noTranscription.transcribe(PCMAudio(sampleRate: 16_000, channels: 1, samples: [0]), language: nil)
        }
    }

    @Test func aCanceledReplyStopsTheTransfer() async throws {
        let provider = try await provider()
        let task = Task {
            var count = 0
            for try await _ in provider.streamChat(
                [AIChatMessage(role: .user, content: "Count from one to two hundred.")], options: AIChatOptions(maxTokens: 400))
            {
                count += 1
                if count == 3 { withUnsafeCurrentTask { $0?.cancel() } }
            }
            return count
        }
        // Tokens that arrived before the cancellation reached the transfer are still handed over
        // (an AsyncThrowingStream's buffer; 19 on a loaded machine), but the transfer stops: the
        // loop ends long before the reply's hundreds of tokens.
        let count = try await task.value
        #expect(count >= 3 && count < 100, "\(count) tokens after cancelling at the third")
    }
}

/// A TCP port on 127.0.0.1 that was free a moment ago.
func unusedPort() throws -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    try #require(bound == 0)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}
