import AIBudsAIFoundation
import AIBudsAudio

/// The sessions' one input format: 16 kHz mono, whatever the source gives.
enum SpeechFormat {
    /// `audio` as 16 kHz mono (libsoxr resamples other rates).
    static func convert(_ audio: PCMAudio) throws -> PCMAudio {
        do {
            return try audio.speechFormat()
        } catch {
            throw AIError(.audioSourceFailed, "the audio source gave unusable audio: \(error)", underlying: error)
        }
    }

    /// `audio` at `rate` Hz with `channels` channels (1, or the audio's own count).
    static func convert(_ audio: PCMAudio, toRate rate: Int, channels: Int) throws -> PCMAudio {
        if audio.sampleRate == rate && audio.channels == channels { return audio }
        do {
            let mono = try audio.mixedToMono().resampled(to: rate)
            guard channels == 1 else {
                throw AIError(.audioSinkFailed, "mono speech cannot join \(channels)-channel speech")
            }
            return mono
        } catch let error as AIError {
            throw error
        } catch {
            throw AIError(.audioSinkFailed, "speech could not be resampled: \(error)", underlying: error)
        }
    }
}

/// Decides whether a 20 ms frame of 16 kHz mono audio is speech: WebRTC's voice activity detector
/// (AIBudsAudio), at aggressiveness 2; the segmenter adds its own onset and end-of-speech rules.
enum SpeechDetector {
    /// A new detector (each session has its own state).
    static func make() throws -> ([Int16]) -> Bool {
        let detector: WebRTCVoiceActivityDetector
        do {
            detector = try WebRTCVoiceActivityDetector(aggressiveness: 2)
        } catch {
            throw AIError(.engineFailed, "the voice activity detector did not start: \(error)", underlying: error)
        }
        return { frame in (try? detector.isSpeech(frame[...])) ?? false }
    }
}
