import AIBudsAIFoundation
import AIBudsAISDK
import AIBudsAudio
import AIBudsOfflineAI
import Foundation

extension BenchASRCommand {
    /// What `--streaming` prints.
    struct StreamingReport: Encodable {
        var sentences: Int
        var firstPartialP50: Double
        var firstPartialP95: Double
        var finalP50: Double
        var finalP95: Double
        var wer: Double
        var peakResidentMB: Double
    }

    /// Each sentence in real time through streaming ASR; the latencies of its first partial and
    /// of its final transcript.
    func runStreaming() async throws -> ExitCode {
        let provider = OfflineAIProvider(recognizer: .moonshine)
        try await provider.prepare()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("aibuds-bench-streaming-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var firstPartials: [Double] = []
        var finals: [Double] = []
        var errors = 0
        var words = 0
        for (index, sentence) in Self.sentences.prefix(sentenceCount).enumerated() {
            let file = folder.appendingPathComponent("sentence-\(index).wav")
            try WAVFile.write(try await SpeechClips.speak(sentence, voice: "en-us", speed: 150), to: file)
            let clock = ContinuousClock()
            let session = try await AIBudsAISDK.startStreamingASR(
                parameters: AISessionParameters(partialResultInterval: 0.5),
                source: WAVFileAudioSource(url: file, realTime: true), using: provider)
            // The source plays from the session's start, so audio time t is this clock's start + t.
            let start = clock.now
            var firstPartial: Double?
            var speechStart: Double?
            for await event in session.events {
                let now = (clock.now - start) / .seconds(1)
                switch event {
                case .speechStarted(let at) where speechStart == nil: speechStart = at
                case .partialTranscript where firstPartial == nil: firstPartial = now - (speechStart ?? 0)
                case .transcript(let span, let transcript):
                    finals.append(now - span.end)
                    let wer = WordErrorRate(reference: sentence, hypothesis: transcript.text)
                    errors += wer.substitutions + wer.deletions + wer.insertions
                    words += wer.referenceWords
                default: break
                }
            }
            _ = try await session.result()
            if let firstPartial { firstPartials.append(firstPartial) }
        }
        func percentile(_ values: [Double], _ p: Double) -> Double {
            let sorted = values.sorted()
            return sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * p).rounded()))]
        }
        let report = StreamingReport(
            sentences: sentenceCount, firstPartialP50: percentile(firstPartials, 0.5), firstPartialP95: percentile(firstPartials, 0.95),
            finalP50: percentile(finals, 0.5), finalP95: percentile(finals, 0.95), wer: Double(errors) / Double(max(1, words)),
            peakResidentMB: SpeechClips.peakMemoryMiB)
        if json {
            try DeviceCommandSupport.printJSON(report)
        } else {
            CLI.say(String(format: "first partial  p50 %.2f s  p95 %.2f s  (from the start of speech)", report.firstPartialP50, report.firstPartialP95))
            CLI.say(String(format: "final          p50 %.2f s  p95 %.2f s  (from the end of speech)", report.finalP50, report.finalP95))
            CLI.say(String(format: "WER %.1f%% on %d sentences; peak memory %.0f MiB", report.wer * 100, sentenceCount, report.peakResidentMB))
        }
        return .ok
    }
}
