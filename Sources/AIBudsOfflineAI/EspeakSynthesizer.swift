import AIBudsAIFoundation
import AIBudsAudio
import AIBudsSync
import CEspeakNG

/// Speech from libespeak-ng in this process. The library has one global state (voice, callback),
/// so every synthesis holds one process-wide lock.
enum EspeakSynthesizer {
    private final class Collector {
        var samples: [Int16] = []
    }

    /// The sample rate libespeak-ng reported at initialization, or 0 when it failed.
    private static let lock = Locked<Int32?>(nil)

    /// Speaks `text` with the espeak-ng voice for `language` (a BCP 47 code such as `en`, `es`).
    static func synthesize(_ text: String, language: String) throws -> PCMAudio {
        try lock.withLock { rate -> PCMAudio in
            if rate == nil {
                rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 200, nil, Int32(espeakINITIALIZE_DONT_EXIT))
                espeak_SetSynthCallback { wav, count, events in
                    guard let events, let context = events.pointee.user_data else { return 0 }
                    let collector = Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue()
                    if let wav, count > 0 { collector.samples.append(contentsOf: UnsafeBufferPointer(start: wav, count: Int(count))) }
                    return 0
                }
            }
            guard let sampleRate = rate, sampleRate > 0 else {
                throw AIError(.engineFailed, "libespeak-ng did not initialize (is espeak-ng-data installed?)")
            }
            guard language.withCString({ espeak_SetVoiceByName($0) }) == EE_OK else {
                throw AIError(.invalidParameters, "espeak-ng has no voice for language '\(language)'")
            }
            let collector = Collector()
            let context = Unmanaged.passRetained(collector)
            defer { context.release() }
            let result = text.withCString { chars in
                espeak_Synth(chars, text.utf8.count + 1, 0, POS_CHARACTER, 0, UInt32(espeakCHARS_UTF8), nil, context.toOpaque())
            }
            guard result == EE_OK else { throw AIError(.engineFailed, "espeak_Synth failed (\(result.rawValue))") }
            guard espeak_Synchronize() == EE_OK else { throw AIError(.engineFailed, "espeak_Synchronize failed") }
            return PCMAudio(sampleRate: Int(sampleRate), channels: 1, samples: collector.samples)
        }
    }
}
