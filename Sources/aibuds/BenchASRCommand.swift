import AIBudsAIFoundation
import AIBudsAudio
import AIBudsOfflineAI
import AIBudsOpenAI
import AIBudsProcess
import Foundation

/// `aibuds bench asr`: word error rate and speed of the offline recognizers (and of a Whisper
/// server when one is configured) on a labelled set of generated speech.
struct BenchASRCommand: CLICommand {
    static let path = ["bench", "asr"]
    static let abstract = "Word error rate and real-time factor of the speech recognizers on generated speech."
    static let help = """
        usage: aibuds bench asr [--engines moonshine,pocketsphinx,whisper] [--sentences N] [--json]
               aibuds bench asr --streaming [--sentences N] [--json]

        Makes a labelled set: N sentences (default 10) said by three espeak-ng voices (en-us,
        en-gb-x-rp, en-us+f3) at two speeds (150 and 190 words a minute), each clean and with white
        noise mixed in at 20 dB and 10 dB SNR, then transcribes every clip with each engine and
        prints, per engine and noise level, the word error rate and the real-time factor (time to
        transcribe / audio duration), and the process's peak memory.

        engines:
          moonshine     Moonshine base in this process (ONNX Runtime; scripts/asr-model.sh)
          pocketsphinx  PocketSphinx with its US English model
          whisper       the OpenAI-compatible transcription server of AIBUDS_AI_TRANSCRIBE_URL or
                        AIBUDS_AI_BASE_URL (scripts/ai-servers.sh starts faster-whisper's), when set

        With --streaming, each sentence (en-us, 150 words a minute, clean) plays in real time, as
        a microphone delivers it, through the SDK's streaming ASR with Moonshine (a partial every
        0.5 s of speech), and it prints the first-partial latency (from the start of speech to
        the first partial transcript) and the final latency (from the end of speech to the final
        transcript) at p50 and p95, and the final transcripts' word error rate.
        """

    static let sentences = [
        "Please remind me to buy green apples and fresh bread tomorrow morning.",
        "Hey glasses, take a photo.",
        "The meeting starts in the small conference room after lunch.",
        "Turn the volume down a little and play the next song.",
        "Send a message to Anna saying I will be late for dinner.",
        "What is the weather going to be like this afternoon?",
        "Record a short video of the harbour while the boats come in.",
        "Translate this sign into English for me, please.",
        "How far is it to the nearest train station from here?",
        "Stop the recording and save it with the name garden walk.",
        "Call my sister when the battery is full again.",
        "Read me the first page of the document on the teleprompter.",
    ]
    static let noiseLevels: [Double?] = [nil, 20, 10]

    var engines: [String]
    var sentenceCount: Int
    var json: Bool
    var streaming: Bool

    init(_ arguments: inout Arguments) throws {
        engines = (try arguments.option("--engines") ?? "moonshine,pocketsphinx,whisper").split(separator: ",").map(String.init)
        for engine in engines where !["moonshine", "pocketsphinx", "whisper"].contains(engine) {
            throw CommandFailure.usage("unknown engine '\(engine)' (moonshine, pocketsphinx, whisper)")
        }
        sentenceCount = try arguments.number("--sentences") ?? 10
        guard (1...Self.sentences.count).contains(sentenceCount) else {
            throw CommandFailure.usage("--sentences must be 1 to \(Self.sentences.count)")
        }
        json = arguments.flag("--json")
        streaming = arguments.flag("--streaming")
    }

    struct Clip {
        var text: String
        var noise: Double?
        var audio: PCMAudio
    }

    struct Row: Encodable {
        var engine: String
        var noise: String
        var clips: Int
        var wer: Double
        var rtf: Double
    }

    func run() async throws -> ExitCode {
        if streaming { return try await runStreaming() }
        let clips = try await makeSet()
        let audioSeconds = clips.map { Double($0.audio.frameCount) / 16_000 }.reduce(0, +)
        CLI.printError("\(clips.count) clips, \(String(format: "%.0f", audioSeconds)) s of speech")
        var rows: [Row] = []
        for engine in engines {
            guard let transcribe = try transcriber(engine) else {
                CLI.printError("\(engine): not configured, skipped")
                continue
            }
            var errors: [String: (errors: Int, words: Int, busy: Double, audio: Double, clips: Int)] = [:]
            for clip in clips {
                let started = ContinuousClock.now
                let text = try await transcribe(clip.audio)
                let busy = (ContinuousClock.now - started) / .seconds(1)
                let wer = WordErrorRate(reference: clip.text, hypothesis: text)
                let key = clip.noise.map { "\(Int($0)) dB" } ?? "clean"
                var entry = errors[key] ?? (0, 0, 0, 0, 0)
                entry.errors += wer.substitutions + wer.deletions + wer.insertions
                entry.words += wer.referenceWords
                entry.busy += busy
                entry.audio += Double(clip.audio.frameCount) / 16_000
                entry.clips += 1
                errors[key] = entry
            }
            for key in ["clean", "20 dB", "10 dB"] {
                guard let entry = errors[key] else { continue }
                rows.append(Row(engine: engine, noise: key, clips: entry.clips,
                                wer: Double(entry.errors) / Double(max(1, entry.words)), rtf: entry.busy / entry.audio))
            }
        }
        let peak = SpeechClips.peakMemoryMiB
        if json {
            struct Report: Encodable {
                var rows: [Row]
                var peakResidentMB: Double
            }
            try DeviceCommandSupport.printJSON(Report(rows: rows, peakResidentMB: peak))
        } else {
            CLI.say("engine        noise   clips   WER     RTF")
            for row in rows {
                let engine = row.engine.padding(toLength: 13, withPad: " ", startingAt: 0)
                let noise = row.noise.padding(toLength: 7, withPad: " ", startingAt: 0)
                CLI.say(engine + " " + noise + String(format: " %5d   %5.1f%%  %.2f", row.clips, row.wer * 100, row.rtf))
            }
            CLI.say(String(format: "peak memory %.0f MiB", peak))
        }
        return .ok
    }

    /// The clips: each sentence by each voice at each speed, clean and noisy, at 16 kHz mono.
    private func makeSet() async throws -> [Clip] {
        var clips: [Clip] = []
        var seed: UInt64 = 1
        for sentence in Self.sentences.prefix(sentenceCount) {
            for voice in SpeechClips.voices {
                for speed in SpeechClips.speeds {
                    let speech = try await SpeechClips.speak(sentence, voice: voice, speed: speed)
                    for noise in Self.noiseLevels {
                        seed += 1
                        clips.append(Clip(text: sentence, noise: noise, audio: noise.map { SpeechClips.mixNoise(speech, snr: $0, seed: seed) } ?? speech))
                    }
                }
            }
        }
        return clips
    }

    /// The engine's transcription, nil when it is not configured here.
    private func transcriber(_ engine: String) throws -> ((PCMAudio) async throws -> String)? {
        switch engine {
        case "moonshine":
            let recognizer = try MoonshineRecognizer()
            return { audio in try recognizer.transcribe(audio) }
        case "pocketsphinx":
            let provider = OfflineAIProvider(recognizer: .pocketSphinx)
            return { audio in try await provider.transcribe(audio, language: "en").text }
        default:
            let configuration = OpenAICompatibleConfiguration.fromEnvironment()
            guard configuration.transcriptionBaseURL != nil else { return nil }
            let provider = OpenAICompatibleProvider(configuration: configuration)
            return { audio in try await provider.transcribe(audio, language: "en").text }
        }
    }
}
