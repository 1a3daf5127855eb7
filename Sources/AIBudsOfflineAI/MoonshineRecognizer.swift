import AIBudsAIFoundation
import AIBudsAudio
import AIBudsFiles
import AIBudsONNX
import Foundation

/// English speech recognition in this process with Moonshine base (an encoder–decoder transformer
/// of the Whisper family, 62 MB, from the `moonshine-cpp` Python wheel; `scripts/asr-model.sh`
/// installs it) run by ONNX Runtime: the encoder reads the raw 16 kHz waveform, the decoder writes
/// the text token by token, greedily, with its attention cache.
///
/// Audio longer than ``maximumChunkSeconds`` is cut at its quietest moments into chunks the model
/// takes. One transcription at a time per recognizer.
public final class MoonshineRecognizer: Sendable {
    /// The longest audio given to the model at once; longer audio is cut.
    public static let maximumChunkSeconds = 30.0
    /// At most this many tokens per second of audio are written (English speech has fewer than 4).
    static let tokensPerSecond = 6.5
    private static let layers = 8
    private static let heads: Int64 = 8
    private static let headSize: Int64 = 52

    private let encoder: ONNXSession
    private let decoder: ONNXSession
    private let tokenizer: MoonshineTokenizer

    /// The folder of the model's three files: `$AIBUDS_MOONSHINE_MODEL`, else
    /// `~/.cache/aibuds/moonshine-base-en-0.1.4` as `scripts/asr-model.sh` leaves it.
    public static func locateModel(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> URL {
        let folder = environment["AIBUDS_MOONSHINE_MODEL"].map { URL(fileURLWithPath: $0) }
            ?? XDGFolder.cache(environment: environment).appendingPathComponent("moonshine-base-en-0.1.4")
        for file in ["encoder_model.ort", "decoder_model_merged.ort", "tokenizer.bin"]
        where !FileManager.default.fileExists(atPath: folder.appendingPathComponent(file).path) {
            throw AIError(.engineFailed, "the Moonshine model is not installed: no \(file) in \(folder.path) (run scripts/asr-model.sh)")
        }
        return folder
    }

    /// Whether the model and ONNX Runtime are installed (``init(model:threads:)`` may still fail
    /// on a broken file).
    public static var isInstalled: Bool {
        (try? locateModel()) != nil && (try? ONNXRuntime.locateLibrary()) != nil
    }

    /// Loads the model in `model` (``locateModel(environment:)``'s by default), run on `threads`
    /// threads (one is fastest on two cores: the decoder's steps are small).
    public init(model: URL? = nil, threads: Int = 1) throws {
        let folder = try model ?? Self.locateModel()
        do {
            encoder = try ONNXSession(model: folder.appendingPathComponent("encoder_model.ort"), threads: threads)
            decoder = try ONNXSession(model: folder.appendingPathComponent("decoder_model_merged.ort"), threads: threads)
            let vocabulary = try InputFile.read(folder.appendingPathComponent("tokenizer.bin"), limit: MoonshineTokenizer.maximumFileSize)
            tokenizer = try MoonshineTokenizer([UInt8](vocabulary))
        } catch let error as AIError {
            throw error
        } catch {
            throw AIError(.engineFailed, "Moonshine did not load from \(folder.path): \(error)", underlying: error)
        }
    }

    /// The text spoken in `audio` (any rate and channel count: it is brought to 16 kHz mono).
    public func transcribe(_ audio: PCMAudio) throws -> String {
        let speech: PCMAudio
        do { speech = try audio.speechFormat() } catch { throw AIError(.invalidParameters, "\(error)", underlying: error) }
        let chunks = Self.chunks(speech.samples, rate: 16_000, maximumSeconds: Self.maximumChunkSeconds)
        return try chunks.map { try transcribeChunk($0) }.filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// One chunk (at most ``maximumChunkSeconds``): the encoder once, then the decoder step by step.
    func transcribeChunk(_ samples: ArraySlice<Int16>) throws -> String {
        // The encoder's convolutions need 895 samples (56 ms); less is no speech.
        guard samples.count >= 895 else { return "" }
        let waveform = samples.map { Float($0) / 32_768 }
        let encoded: ONNXTensor
        do {
            encoded = try encoder.run([("input_values", ONNXTensor(waveform, shape: [1, Int64(waveform.count)]))],
                                      outputs: ["last_hidden_state"])[0]
        } catch {
            throw AIError(.engineFailed, "Moonshine's encoder: \(error)", underlying: error)
        }
        let names = Self.cacheNames
        // Step 0 takes no cache (the branch ignores it; zeros of one position keep buffers non-empty).
        let empty = ONNXTensor([Float](repeating: 0, count: Int(Self.heads * Self.headSize)), shape: [1, Self.heads, 1, Self.headSize])
        var cache = [String: ONNXTensor](uniqueKeysWithValues: names.map { ($0.past, empty) })
        var tokens: [Int64] = []
        var next = MoonshineTokenizer.start
        let limit = Int((Double(samples.count) / 16_000 * Self.tokensPerSecond).rounded(.up))
        // The first step never begins with a bare space, and ends the text only when the end token
        // clearly wins (by ``firstStepEndMargin``): on clear speech the end token can come within
        // a hair of the first word there (espeak-ng's "one two three ..." gave an empty transcript
        // for 2 of 30 dithers of the same clip), while on silence and noise it leads by about 12.
        // Whisper's and CTranslate2's decoders "suppress blank" at that step for the same reason.
        for step in 0..<max(1, limit) {
            var inputs: [(name: String, tensor: ONNXTensor)] = [
                ("input_ids", ONNXTensor([next], shape: [1, 1])),
                ("encoder_hidden_states", encoded),
                ("use_cache_branch", ONNXTensor([step > 0], shape: [1])),
            ]
            for name in names { inputs.append((name.past, cache[name.past]!)) }
            // The encoder's keys and values come back once, at step 0; later steps return a placeholder.
            let wanted = names.filter { step == 0 || $0.isDecoder }
            let outputs: [ONNXTensor]
            do {
                outputs = try decoder.run(inputs, outputs: ["logits"] + wanted.map(\.present))
            } catch {
                throw AIError(.engineFailed, "Moonshine's decoder, step \(step): \(error)", underlying: error)
            }
            for (name, tensor) in zip(wanted, outputs.dropFirst()) { cache[name.past] = tensor }
            guard let logits = outputs[0].floats, !logits.isEmpty else { throw AIError(.engineFailed, "Moonshine's decoder gave no logits") }
            next = Int64(step == 0 ? firstToken(logits) : Self.argmax(logits, below: tokenizer.count))
            if next == MoonshineTokenizer.end { break }
            tokens.append(next)
        }
        return tokenizer.text(tokens)
    }

    /// Every cache tensor: its input and output names, and whether it belongs to the decoder's own
    /// attention (it grows a position per step) rather than to the encoder's (fixed per chunk).
    private static let cacheNames: [(past: String, present: String, isDecoder: Bool)] = (0..<layers).flatMap { layer in
        ["decoder", "encoder"].flatMap { part in
            ["key", "value"].map { kind in
                ("past_key_values.\(layer).\(part).\(kind)", "present.\(layer).\(part).\(kind)", part == "decoder")
            }
        }
    }

    /// How far the end token's logit must lead every word's at the first step for the text to
    /// be empty: 2 (odds of about 7 to 1).
    static let firstStepEndMargin: Float = 2

    /// The first token: the best word that is not a bare space, unless the end token leads it by
    /// ``firstStepEndMargin``.
    func firstToken(_ logits: [Float]) -> Int {
        let end = Int(MoonshineTokenizer.end)
        let word = Self.argmax(logits, below: tokenizer.count, excluding: [MoonshineTokenizer.end] + [tokenizer.blank].compactMap { $0 })
        return end < logits.count && logits[end] - logits[word] >= Self.firstStepEndMargin ? end : word
    }

    /// The index of the largest value among the first `count` (the logits are padded past the
    /// vocabulary), leaving out the indices in `excluding`.
    static func argmax(_ values: [Float], below count: Int, excluding: [Int64] = []) -> Int {
        var best = 0
        var bestValue = -Float.infinity
        for index in 0..<min(count, values.count) where values[index] > bestValue && !excluding.contains(Int64(index)) {
            best = index
            bestValue = values[index]
        }
        return best
    }

    /// `samples` cut into chunks of at most `maximumSeconds`, each cut at the quietest 100 ms of
    /// the last third before the limit (a pause, where a word does not break).
    static func chunks(_ samples: [Int16], rate: Int, maximumSeconds: Double) -> [ArraySlice<Int16>] {
        let limit = Int(maximumSeconds * Double(rate))
        guard samples.count > limit else { return [samples[...]] }
        var chunks: [ArraySlice<Int16>] = []
        var start = 0
        let window = rate / 10
        while samples.count - start > limit {
            var cut = start + limit
            var quietest = Int64.max
            var position = start + limit * 2 / 3
            while position + window <= start + limit {
                let energy = samples[position..<(position + window)].reduce(Int64(0)) { $0 + Int64($1) * Int64($1) }
                if energy < quietest {
                    quietest = energy
                    cut = position + window / 2
                }
                position += window / 2
            }
            chunks.append(samples[start..<cut])
            start = cut
        }
        chunks.append(samples[start...])
        return chunks
    }
}
