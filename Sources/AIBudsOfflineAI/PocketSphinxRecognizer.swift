import AIBudsAIFoundation
import AIBudsAudio
import AIBudsSync
import CPocketSphinx
import Foundation

/// Speech recognition by CMU PocketSphinx (Debian's libpocketsphinx with its US English acoustic
/// model, dictionary and language model) in this process: no server, English only, and far less
/// accurate than Whisper (a small n-gram model of general English; no punctuation).
enum PocketSphinxRecognizer {
    /// Where Debian's `pocketsphinx-en-us` package puts the model.
    static let modelDirectory = "/usr/share/pocketsphinx/model/en-us"

    /// The decoder, loaded on first use (about a second) and reused under the lock.
    private static let decoder = Locked<OpaquePointer?>(nil)

    /// Transcribes 16 kHz mono audio.
    static func transcribe(_ audio: PCMAudio) throws -> String {
        guard audio.sampleRate == 16_000, audio.channels == 1 else {
            throw AIError(.invalidParameters, "PocketSphinx takes 16 kHz mono audio, not \(audio.sampleRate) Hz × \(audio.channels)")
        }
        return try decoder.withLock { decoder -> String in
            if decoder == nil { decoder = try load() }
            guard let ps = decoder else { throw AIError(.engineFailed, "PocketSphinx did not load") }
            guard ps_start_utt(ps) == 0 else { throw AIError(.engineFailed, "PocketSphinx could not start an utterance") }
            let processed = audio.samples.withUnsafeBufferPointer {
                ps_process_raw(ps, $0.baseAddress, $0.count, 0, 1)
            }
            guard processed >= 0, ps_end_utt(ps) == 0 else { throw AIError(.engineFailed, "PocketSphinx failed to decode") }
            var score: Int32 = 0
            guard let hypothesis = ps_get_hyp(ps, &score) else { return "" }
            return String(cString: hypothesis)
        }
    }

    private static func load() throws -> OpaquePointer {
        let files = ["en-us", "en-us.lm.bin", "cmudict-en-us.dict"].map { modelDirectory + "/" + $0 }
        for file in files where !FileManager.default.fileExists(atPath: file) {
            throw AIError(.engineFailed, "PocketSphinx's model is missing: \(file) (Debian package pocketsphinx-en-us)")
        }
        let words = ["pocketsphinx", "-hmm", files[0], "-lm", files[1], "-dict", files[2], "-logfn", "/dev/null"]
        var argv = words.map { strdup($0) }
        defer { argv.forEach { free($0) } }
        guard let config = argv.withUnsafeMutableBufferPointer({
            cmd_ln_parse_r(nil, ps_args(), Int32($0.count), $0.baseAddress, 1)
        }) else {
            throw AIError(.engineFailed, "PocketSphinx rejected its configuration")
        }
        defer { cmd_ln_free_r(config) }
        guard let decoder = ps_init(config) else { throw AIError(.engineFailed, "PocketSphinx could not load its model") }
        return decoder
    }
}
