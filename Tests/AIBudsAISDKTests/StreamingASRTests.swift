import AIBudsAIFoundation
import AIBudsAISDK
import AIBudsAudio
import AIBudsFoundation
import AIBudsOfflineAI
import AIBudsSync
import AIBudsTestKit
import Foundation
import Testing

/// Streaming ASR with the offline recognizer on speech played in real time, as a microphone
/// delivers it: partial transcripts while each utterance is spoken, then its final one.
@Suite(.timeLimit(.minutes(3))) struct StreamingASRTests {
    static let sentences = [
        "Please remind me to buy green apples and fresh bread tomorrow morning.",
        "The meeting with the design team moves to Thursday afternoon.",
    ]

    /// The two sentences with 1.5 s of silence between them, 16 kHz mono, in a WAV file.
    static func speech(in directory: URL) async throws -> URL {
        var samples: [Int16] = []
        for (index, sentence) in sentences.enumerated() {
            let wav = try await spokenWAV(sentence, in: directory, name: "sentence-\(index)")
            samples += try WAVFile.read(from: wav).samples + [Int16](repeating: 0, count: 24_000)
        }
        let url = directory.appendingPathComponent("two-sentences.wav")
        try WAVFile.write(PCMAudio(sampleRate: 16_000, channels: 1, samples: samples), to: url)
        return url
    }

    @Test func partialsComeWhileAnUtteranceIsSpokenAndNoneAfterItsFinalText() async throws {
        try #require(MoonshineRecognizer.isInstalled, "scripts/asr-model.sh installs the Moonshine model")
        let directory = try makeTemporaryDirectory("streaming-asr")
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = WAVFileAudioSource(url: try await Self.speech(in: directory), realTime: true)
        let session = try await AIBudsAISDK.startStreamingASR(
            parameters: AISessionParameters(partialResultInterval: 0.4), source: source, using: OfflineAIProvider(recognizer: .moonshine))
        #expect(session.info.kind == .streamingASR)
        var timeline: [(event: AISessionEvent, Void)] = []
        for await event in session.events { timeline.append((event, ())) }
        let result = try await session.result()

        #expect(result.transcripts.count == 2, "\(result.transcripts)")
        for (reference, transcript) in zip(Self.sentences, result.transcripts) {
            let wer = WordErrorRate(reference: reference, hypothesis: transcript.text)
            #expect(wer.rate <= 0.15, "'\(transcript.text)' (WER \(wer.rate))")
        }
        for utterance in 0..<2 {
            let partials = timeline.indices.filter {
                if case .partialTranscript(utterance, _) = timeline[$0].event { true } else { false }
            }
            let final = try #require(timeline.firstIndex {
                if case .transcript(let span, _) = $0.event { span.index == utterance } else { false }
            })
            // Streaming: the first partial was heard from part of the utterance (how soon it
            // comes on an idle machine is docs/benchmarks.md's first-partial latency).
            // The first utterance always has one; a partial of the second may be skipped as stale
            // when a loaded machine transcribes the first's final text past the second's end.
            guard let first = partials.first else {
                #expect(utterance > 0, "no partial for utterance \(utterance)")
                continue
            }
            if case .partialTranscript(_, let text) = timeline[first].event, case .transcript(_, let whole) = timeline[final].event {
                #expect(AITranscript(text: text).words.count < whole.words.count, "'\(text)' / '\(whole.text)'")
            }
            #expect(partials.allSatisfy { $0 < final }, "a partial of utterance \(utterance) came after its final text")
            // Each partial says more than the one before it or something else (no repeats).
            let texts = partials.compactMap { if case .partialTranscript(_, let text) = timeline[$0].event { text } else { nil } }
            #expect(zip(texts, texts.dropFirst()).allSatisfy { $0 != $1 })
        }
    }

    @Test func aPartialThatFailsIsSkippedAndTheFinalTextStillComes() async throws {
        try #require(MoonshineRecognizer.isInstalled, "scripts/asr-model.sh installs the Moonshine model")
        /// Moonshine, failing (as an engine that runs out of memory would) on any audio under 2.5 s.
        final class FailsOnShortAudio: AIConnectSDK {
            let recognizer = OfflineAIProvider(recognizer: .moonshine)
            let failures = Locked(0)
            var providerName: String { "fails-on-short-audio" }
            var vendor: AIServiceVendor { .none }
            var capabilities: AICapabilities { .transcription }
            func transcribe(_ audio: PCMAudio, language: String?) async throws -> AITranscript {
                guard audio.duration >= 2.5 else {
                    failures.withLock { $0 += 1 }
                    throw AIError(.engineFailed, "no memory for \(audio.duration) s")
                }
                return try await recognizer.transcribe(audio, language: language)
            }
        }
        let directory = try makeTemporaryDirectory("streaming-asr-failing-partial")
        defer { try? FileManager.default.removeItem(at: directory) }
        let wav = try await spokenWAV(Self.sentences[0], in: directory)
        let provider = FailsOnShortAudio()
        let session = try await AIBudsAISDK.startStreamingASR(
            parameters: AISessionParameters(partialResultInterval: 0.4), source: WAVFileAudioSource(url: wav, realTime: true), using: provider)
        var events: [AISessionEvent] = []
        for await event in session.events { events.append(event) }
        let result = try await session.result()

        #expect(provider.failures.withLock { $0 } > 0, "no partial was tried on short audio")
        #expect(result.transcripts.count == 1, "\(events)")
        let wer = WordErrorRate(reference: Self.sentences[0], hypothesis: result.transcripts.first?.text ?? "")
        #expect(wer.rate <= 0.15, "\(result.transcripts)")
        #expect(events.last == .finished, "\(events)")
    }

    @Test func aBadIntervalOrAProviderThatCannotTranscribeIsRefused() async throws {
        let source = PCMAudioSource(PCMAudio(sampleRate: 16_000, channels: 1, samples: []))
        for interval in [0, -1, Double.nan] {
            let error = await #expect(throws: AIError.self) {
                try await AIBudsAISDK.startStreamingASR(
                    parameters: AISessionParameters(partialResultInterval: interval), source: source, using: OfflineAIProvider())
            }
            #expect(error?.code == .invalidParameters)
        }
        final class SpeechOnly: AIConnectSDK {
            var providerName: String { "speech-only" }
            var vendor: AIServiceVendor { .none }
            var capabilities: AICapabilities { .speech }
        }
        let error = await #expect(throws: AIError.self) {
            try await AIBudsAISDK.startStreamingASR(source: source, using: SpeechOnly())
        }
        #expect(error?.code == .capabilityUnsupported)
    }
}

extension AISDKTests {
    @Test func streamingASRHasACallbackFormWithThePartialsAsEvents() async throws {
        try #require(MoonshineRecognizer.isInstalled, "scripts/asr-model.sh installs the Moonshine model")
        AIBudsAISDK.reset()
        defer { AIBudsAISDK.reset() }
        try AIBudsAISDK.initialize(aiSDKs: [OfflineAIProvider(recognizer: .moonshine)])
        AIBudsAISDK.setAIProvider(named: "offline")
        let directory = try makeTemporaryDirectory("streaming-asr-callbacks")
        defer { try? FileManager.default.removeItem(at: directory) }
        let wav = try await spokenWAV(StreamingASRTests.sentences[0], in: directory)
        let events = Locked<[AISessionEvent]>([])
        let outcome: (AISessionResult?, NSError?) = await withCheckedContinuation { done in
            AIBudsAISDK.startStreamingASR(
                source: WAVFileAudioSource(url: wav, realTime: true),
                eventHandler: { event in events.withLock { $0.append(event) } },
                completion: { result, error in done.resume(returning: (result, error)) })
        }
        #expect(outcome.1 == nil)
        let result = try #require(outcome.0)
        #expect(result.kind == .streamingASR && result.transcripts.count == 1)
        let recorded = events.withLock { $0 }
        #expect(recorded.contains { if case .partialTranscript(0, _) = $0 { true } else { false } }, "\(recorded)")
        #expect(recorded.last == .finished)
    }
}
