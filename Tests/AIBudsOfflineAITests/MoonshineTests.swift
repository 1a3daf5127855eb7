import AIBudsAIFoundation
import AIBudsAudio
import AIBudsTestKit
import Foundation
import Testing
@testable import AIBudsOfflineAI

/// Moonshine, the offline recognizer: its vocabulary and chunking alone, then the model on speech
/// espeak-ng makes (scripts/test.sh installs the model with scripts/asr-model.sh).
@Suite(.timeLimit(.minutes(5))) struct MoonshineTests {
    @Test func theVocabularyJoinsBytesAndSpaces() throws {
        // <unk>, <s>, </s>, then the 256 byte tokens, then "▁he", "llo", a two-byte length (130).
        var file: [UInt8] = []
        for token in ["<unk>", "<s>", "</s>"] { file += [UInt8(token.utf8.count)] + Array(token.utf8) }
        for byte in 0...255 { file += [1, UInt8(byte)] }
        for token in ["\u{2581}he", "llo", "\u{2581}w"] { file += [UInt8(token.utf8.count)] + Array(token.utf8) }
        let long = [UInt8](repeating: 0x61, count: 130)
        file += [128 + 2, 1] + long
        let tokenizer = try MoonshineTokenizer(file)
        #expect(tokenizer.count == 263)
        // 259 "▁he", 260 "llo", 261 "▁w", byte tokens 3 + "ö"'s two UTF-8 bytes, then "rld".
        let oWithDiaeresis = Array("ö".utf8).map { Int64($0) + 3 }
        let ids: [Int64] = [1, 259, 260, 261] + oWithDiaeresis + Array("rld".utf8).map { Int64($0) + 3 } + [2, 99_999]
        #expect(tokenizer.text(ids) == "hello wörld")
        #expect(tokenizer.text([262]) == String(repeating: "a", count: 130))
        // A record that runs past the end of the file is refused, not read past.
        #expect(throws: AIError.self) { _ = try MoonshineTokenizer(file + [40, 1, 2]) }
    }

    @Test func longAudioIsCutAtItsPausesIntoChunksTheModelTakes() {
        // 70 s of "speech" (a tone) with pauses at 25 s and 50 s.
        let rate = 16_000
        var samples = [Int16](repeating: 0, count: 70 * rate)
        for index in samples.indices {
            let second = Double(index) / Double(rate)
            let pause = (25.0..<25.5).contains(second) || (50.0..<50.5).contains(second)
            samples[index] = pause ? 0 : Int16(6_000 * sin(Double(index) * 0.3))
        }
        let chunks = MoonshineRecognizer.chunks(samples, rate: rate, maximumSeconds: 30)
        #expect(chunks.count == 3)
        #expect(chunks.allSatisfy { $0.count <= 30 * rate })
        #expect(chunks.map(\.count).reduce(0, +) == samples.count)
        // Each cut falls inside a pause.
        for chunk in chunks.dropLast() {
            let cut = Double(chunk.endIndex) / Double(rate)
            #expect((25.0..<25.5).contains(cut) || (50.0..<50.5).contains(cut), "cut at \(cut) s")
        }
    }

    /// Clear speech is never heard as nothing: the same clip with 24 different last-bit dithers
    /// (a seeded generator, so every run tries the same ones) is transcribed every time. Before the
    /// first step's end token had to win clearly, it came within 0.002 of "One" there and won for
    /// some of them: an empty transcript. Silence and noise still give nothing.
    @Test func clearSpeechIsNeverHeardAsNothingWhateverItsLastBit() async throws {
        let recognizer = try MoonshineRecognizer()
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clip = try WAVFile.read(from: try await spokenWAV("one two three four five six seven", in: directory))
        let digits: Set<String> = ["one", "two", "three", "four", "five", "six", "seven"]
        var state: UInt64 = 0x5EED
        for dither in 0..<24 {
            let samples = clip.samples.map { sample -> Int16 in
                // SplitMix64: a triangular ±1 LSB dither from two bits of each draw.
                state &+= 0x9E37_79B9_7F4A_7C15
                var z = state
                z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
                z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
                z ^= z >> 31
                return Int16(clamping: Int(sample) + Int(z & 1) - Int((z >> 1) & 1))
            }
            let text = try recognizer.transcribe(PCMAudio(sampleRate: 16_000, channels: 1, samples: samples))
            let heard = Set(AITranscript(text: text).words).intersection(digits)
            #expect(heard.count >= 5, "dither \(dither): '\(text)'")
        }
        // Silence and noise still come back empty: there the end token leads clearly.
        var noiseState: UInt64 = 42
        for level in [0.0, 180.0, 1_000.0] {  // digital silence, −45 dBFS, −30 dBFS
            let noise = (0..<32_000).map { _ -> Int16 in
                noiseState = noiseState &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let uniform = [24, 36, 48].map { Double((noiseState >> UInt64($0)) & 0xFFF) / 4_096 - 0.5 }.reduce(0, +)
                return Int16(clamping: Int((uniform * 2 * level).rounded()))
            }
            let text = try recognizer.transcribe(PCMAudio(sampleRate: 16_000, channels: 1, samples: noise))
            #expect(text.isEmpty, "noise at RMS about \(level): '\(text)'")
        }
    }

    @Test func speechIsTranscribedAtAnyRateAFileMayHave() async throws {
        let recognizer = try MoonshineRecognizer()
        let sentences = [
            "Hey glasses, take a photo.",
            "Please remind me to buy green apples and fresh bread tomorrow morning.",
            "The meeting starts in the small conference room after lunch.",
        ]
        var errors = 0
        var words = 0
        for sentence in sentences {
            // espeak-ng's own rate (22,050 Hz), then as 48 kHz stereo: the recognizer brings both to 16 kHz mono.
            let speech = try await espeakAudio(sentence)
            #expect(speech.sampleRate == 22_050)
            let high = try speech.resampled(to: 48_000)
            let stereo = PCMAudio(sampleRate: 48_000, channels: 2, samples: high.samples.flatMap { [$0, $0] })
            for audio in [speech, stereo] {
                let text = try recognizer.transcribe(audio)
                let wer = WordErrorRate(reference: sentence, hypothesis: text)
                errors += wer.substitutions + wer.deletions + wer.insertions
                words += wer.referenceWords
                #expect(wer.rate <= 0.25, "\(sentence) → \(text)")
            }
        }
        #expect(Double(errors) / Double(words) <= 0.15, "\(errors) errors in \(words) words")
        // A click is no speech.
        #expect(try recognizer.transcribe(PCMAudio(sampleRate: 16_000, channels: 1, samples: [Int16](repeating: 0, count: 100))) == "")
    }

    /// What espeak-ng writes, as it writes it (22,050 Hz mono).
    private func espeakAudio(_ text: String) async throws -> PCMAudio {
        let folder = try makeTemporaryDirectory("espeak")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("speech.wav")
        let result = try await runProgram(URL(fileURLWithPath: "/usr/bin/espeak-ng"), ["-v", "en-us", "-w", file.path, text])
        try #require(result.status == 0, "espeak-ng: \(result.err)")
        return try WAVFile.read(from: file)
    }
}
