import AIBudsAIFoundation
@testable import AIBudsAISDK
import AIBudsAudio
@testable import AIBudsOfflineAI
@testable import AIBudsOpenAI
import Foundation
import Testing

/// Deterministic parts: utterance cutting, sentence splitting, server-sent events, the summary.
@Suite(.timeLimit(.minutes(1))) struct AIUnitTests {
    /// 16 kHz audio of `parts`: (seconds, loud) — loud is a 440 Hz tone, quiet is silence.
    private func audio(_ parts: [(Double, Bool)]) -> [Int16] {
        var samples: [Int16] = []
        for (seconds, loud) in parts {
            let count = Int(seconds * 16_000)
            for i in 0..<count {
                samples.append(loud ? Int16(8_000 * sin(Double(samples.count + i) * 2 * .pi * 440 / 16_000)) : 0)
            }
        }
        return samples
    }

    /// A frame is speech when it is loud: the segmenter's rules, tested apart from the VAD's.
    private let loud: ([Int16]) -> Bool = { frame in frame.contains { abs(Int($0)) > 1_000 } }

    @Test func utterancesAreCutAtPausesWithTheirTiming() throws {
        var segmenter = UtteranceSegmenter(endSilence: 0.5, maxDuration: 20, isSpeech: loud)
        let input = audio([(0.5, false), (1.0, true), (0.8, false), (0.6, true), (0.3, false)])
        var outputs: [UtteranceSegmenter.Output] = []
        // Fed in uneven chunks, as a device delivers them.
        var offset = 0
        for size in [100, 3_000, 7, 16_000, 999, 40_000] where offset < input.count {
            let end = min(input.count, offset + size)
            outputs += segmenter.feed(Array(input[offset..<end]))
            offset = end
        }
        outputs += segmenter.feed(Array(input[offset...]))
        outputs += segmenter.flush()
        let utterances = segmenter.takeFinished()
        #expect(utterances.count == 2)
        let first = utterances.first
        #expect(abs((first?.span.start ?? 0) - 0.5) < 0.03)
        #expect(abs((first?.span.end ?? 0) - 1.5) < 0.03)
        // 0.2 s of pre-roll and tail around one second of tone.
        #expect(abs(Double(first?.audio.samples.count ?? 0) / 16_000 - 1.4) < 0.05)
        let second = utterances.last
        #expect(second?.span.index == 1)
        #expect(abs((second?.span.start ?? 0) - 2.3) < 0.03)
        // The second utterance was still open at the end: the flush closed it.
        #expect(outputs.filter { if case .speechStarted = $0 { true } else { false } }.count == 2)
    }

    @Test func aLongUtteranceIsCutAtTheLimitAndClicksAreIgnored() throws {
        var segmenter = UtteranceSegmenter(endSilence: 0.5, maxDuration: 1.0, isSpeech: loud)
        _ = segmenter.feed(audio([(0.3, false), (0.1, true), (1.0, false), (2.5, true), (1.0, false)]))
        _ = segmenter.flush()
        let utterances = segmenter.takeFinished()
        // The 0.1 s click is shorter than the 0.2 s minimum; 2.5 s of speech makes three cuts of at most 1 s.
        #expect(utterances.count == 3)
        #expect(utterances.allSatisfy { $0.span.end - $0.span.start <= 1.0 + 1e-9 })
    }

    @Test func repliesAreSpokenSentenceBySentence() {
        var splitter = SentenceSplitter()
        var sentences: [String] = []
        for token in ["Hel", "lo there", ". It is 3.5 de", "grees", "! Why", "?", " Fine"] {
            sentences += splitter.feed(token)
        }
        #expect(sentences == ["Hello there.", "It is 3.5 degrees!", "Why?"])
        #expect(splitter.feed("\n") == ["Fine"])
        #expect(splitter.flush() == nil)
    }

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

    @Test func theSummaryKeepsTheMainSentencesInOrder() {
        let text = "The budget for the robot project is approved. Lunch was good. "
            + "The robot project needs two more engineers. The weather is nice. "
            + "We will ship the robot project budget report on Friday."
        let summary = ExtractiveSummarizer.summarize(text, count: 2)
        #expect(summary == "The budget for the robot project is approved. We will ship the robot project budget report on Friday.")
        #expect(ExtractiveSummarizer.summarize("Only one.") == "Only one.")
        #expect(ExtractiveSummarizer.split(String(repeating: "word ", count: 45)).count == 3)
    }
}
