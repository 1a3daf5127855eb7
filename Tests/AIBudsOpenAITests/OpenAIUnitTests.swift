import AIBudsAIFoundation
@testable import AIBudsOpenAI
import Foundation
import Testing

/// Deterministic parts of the OpenAI-compatible provider: server-sent events and error answers.
@Suite(.timeLimit(.minutes(1))) struct OpenAIUnitTests {
    @Test func serverSentEventsSurviveAnySplit() throws {
        let stream = "data: {\"choices\":[{\"delta\":{\"content\":\"Hi\"}}]}\r\n\r\n: keep-alive\n\n"
            + "data: {\"choices\":[{\"delta\":{\"content\":\" you\"}}]}\n\ndata: [DONE]\n\n"
        let bytes = Array(stream.utf8)
        for cut in [1, 7, 50, bytes.count] {
            var parser = ServerSentEvents()
            var events: [String] = []
            var start = 0
            while start < bytes.count {
                events += try parser.feed(Data(bytes[start..<min(bytes.count, start + cut)]))
                start += cut
            }
            #expect(events.compactMap { ChatChunk.decode($0)?.token } == ["Hi", " you"])
            #expect(events.last == "[DONE]")
        }
    }

    /// A line that never ends, or an event that never ends, is refused at 1 MiB, never held whole.

    @Test func serverSentEventsAreBounded() {
        var parser = ServerSentEvents()
        let piece = Data(repeating: UInt8(ascii: "y"), count: 64 << 10)
        var refused: AIError?
        for _ in 0..<40 where refused == nil {
            do { _ = try parser.feed(piece) } catch { refused = error }
        }
        #expect(refused?.code == .invalidResponse && refused?.message.contains("line over") == true)
        var events = ServerSentEvents()
        refused = nil
        let line = Data(("data: " + String(repeating: "x", count: 1000) + "\n").utf8)
        for _ in 0..<2000 where refused == nil {
            do { _ = try events.feed(line) } catch { refused = error }
        }
        #expect(refused?.code == .invalidResponse && refused?.message.contains("event over") == true)
    }

    @Test func serverErrorsAreReadInBothShapes() {
        let openAI = OpenAICompatibleProvider.httpError(400, Data(#"{"error":{"message":"bad model"}}"#.utf8), "u")
        #expect(openAI.code == .serverError && openAI.httpStatus == 400 && openAI.message.contains("bad model"))
        let fastAPI = OpenAICompatibleProvider.httpError(422, Data(#"{"detail":"field required"}"#.utf8), "u")
        #expect(fastAPI.message.contains("field required"))
        let junk = OpenAICompatibleProvider.httpError(502, Data([0xFF, 0x00, 0x41]), "u")
        #expect(junk.httpStatus == 502)
    }
}
