import AIBudsAudio
import AIBudsEmulator
import AIBudsTestKit
import Foundation
import Testing

/// Both voice activity detectors on a labelled clip made here: espeak-ng sentences between
/// silences, in white noise at 5 dB SNR; labels from the clean speech's 10 ms levels.
@Suite(.timeLimit(.minutes(2))) struct VoiceActivityTests {
    struct Clip {
        var audio: PCMAudio
        var labels: [Bool]  // per 10 ms
    }

    private func makeClip(snr: Double) async throws -> Clip {
        var samples: [Int16] = []
        var labels: [Bool] = []
        var generator = SeededRandom(seed: 7)
        for sentence in ["Remind me to buy bread on the way home", "What time does the museum open tomorrow",
                         "Translate good morning into French please"] {
            let gap = 16_000 * Int.random(in: 6...14, using: &generator) / 10 / 160 * 160
            samples += [Int16](repeating: 0, count: gap)
            labels += [Bool](repeating: false, count: gap / 160)
            let speech = try await synthesizeSpeech(sentence).samples
            let frames = speech.count / 160
            let levels = (0..<frames).map { f in
                (speech[(f * 160)..<(f * 160 + 160)].reduce(0.0) { $0 + Double($1) * Double($1) } / 160).squareRoot()
            }
            let peak = levels.max() ?? 1
            var active = levels.map { $0 > peak * pow(10, -35 / 20) }
            let on = active.indices.filter { active[$0] }
            for (a, b) in zip(on, on.dropFirst()) where b - a > 1 && b - a <= 20 { for i in a..<b { active[i] = true } }
            samples += speech.prefix(frames * 160)
            labels += active
        }
        samples += [Int16](repeating: 0, count: 16_000)
        labels += [Bool](repeating: false, count: 100)
        var energy = 0.0
        var speechFrames = 0
        for (frame, speech) in zip(samples.chunked(160), labels) where speech {
            for sample in frame { energy += Double(sample) * Double(sample) }
            speechFrames += 1
        }
        let speechPower = energy / Double(max(1, speechFrames * 160))
        let noiseLevel = (speechPower / pow(10, snr / 10)).squareRoot()
        let noisy = samples.map { sample -> Int16 in
            // Box-Muller white noise.
            let u1 = Double.random(in: 1e-12..<1, using: &generator), u2 = Double.random(in: 0..<1, using: &generator)
            let noise = (-2 * log(u1)).squareRoot() * cos(2 * .pi * u2) * noiseLevel
            return Int16(max(-32_768, min(32_767, Double(sample) + noise)))
        }
        return Clip(audio: PCMAudio(sampleRate: 16_000, channels: 1, samples: noisy), labels: labels)
    }

    private func score(_ decisions: [Bool], frameMilliseconds: Int, _ labels: [Bool]) -> (precision: Double, recall: Double) {
        var tp = 0, fp = 0, fn = 0
        for (i, truth) in labels.enumerated() {
            let j = (i * 10 + 5) / frameMilliseconds
            let guess = j < decisions.count && decisions[j]
            if truth && guess { tp += 1 } else if guess { fp += 1 } else if truth { fn += 1 }
        }
        return (Double(tp) / Double(max(1, tp + fp)), Double(tp) / Double(max(1, tp + fn)))
    }

    @Test func sileroKeepsPrecisionAndRecallInNoise() async throws {
        let clip = try await makeClip(snr: 5)
        let engine = VoiceActivityEngine.silero()
        let decisions = try VoiceActivity.frames(in: clip.audio, engine: engine)
        let (precision, recall) = score(decisions, frameMilliseconds: engine.frameMilliseconds, clip.labels)
        #expect(precision > 0.8, "Silero precision \(precision)")
        #expect(recall > 0.9, "Silero recall \(recall)")
        #expect(try VoiceActivity.segments(in: clip.audio, engine: engine).count == 3)
    }

    @Test func webRTCFindsTheSpeechButLosesPrecisionInNoise() async throws {
        let clip = try await makeClip(snr: 5)
        let engine = VoiceActivityEngine.webrtc(aggressiveness: 3)
        let decisions = try VoiceActivity.frames(in: clip.audio, engine: engine, smoother: VoiceActivitySmoother(onsetFrames: 1, hangoverFrames: 0))
        let (precision, recall) = score(decisions, frameMilliseconds: engine.frameMilliseconds, clip.labels)
        #expect(recall > 0.9, "WebRTC recall \(recall)")
        #expect(precision > 0.5, "WebRTC precision \(precision)")
        let clean = try await makeClip(snr: 40)
        let (cleanPrecision, cleanRecall) = score(
            try VoiceActivity.frames(in: clean.audio, engine: engine, smoother: VoiceActivitySmoother(onsetFrames: 1, hangoverFrames: 0)),
            frameMilliseconds: 30, clean.labels)
        #expect(cleanPrecision > 0.85 && cleanRecall > 0.85, "WebRTC clean \(cleanPrecision)/\(cleanRecall)")
    }

    @Test func theSmootherBridgesPausesAndIgnoresClicks() {
        let smoother = VoiceActivitySmoother(onsetFrames: 2, hangoverFrames: 2)
        let raw: [Bool] = [false, true, false, false, true, true, true, false, false, true, false, false, false, false]
        #expect(smoother.smooth(raw) == [false, false, false, false, true, true, true, true, true, true, true, true, false, false])
    }

    @Test func badInputIsATypedError() throws {
        #expect(throws: AudioError.self) { try WebRTCVoiceActivityDetector(aggressiveness: 4) }
        let webrtc = try WebRTCVoiceActivityDetector()
        #expect(throws: AudioError.self) { try webrtc.isSpeech([Int16](repeating: 0, count: 100)[...]) }
        let silero = try SileroVoiceActivityDetector()
        #expect(throws: AudioError.self) { try silero.probability([Int16](repeating: 0, count: 100)[...]) }
        #expect(try silero.probability([Int16](repeating: 0, count: 512)[...]) < 0.1)
    }
}

extension Array {
    /// Consecutive slices of `size` elements (the last may be shorter).
    func chunked(_ size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
