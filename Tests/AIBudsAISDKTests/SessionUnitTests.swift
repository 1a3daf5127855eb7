import AIBudsAIFoundation
@testable import AIBudsAISDK
import AIBudsAudio
import Foundation
import Testing

/// Deterministic parts of the sessions: utterance cutting and sentence splitting.
@Suite(.timeLimit(.minutes(1))) struct SessionUnitTests {
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
        // 0.2 s of pre-roll and 0.5 s of the pause after one second of tone.
        #expect(abs(Double(first?.audio.samples.count ?? 0) / 16_000 - 1.7) < 0.05)
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
}
