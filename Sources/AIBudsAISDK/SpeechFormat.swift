import AIBudsAIFoundation
import AIBudsAudio

/// The sessions' one input format: 16 kHz mono, whatever the source gives.
enum SpeechFormat {
    /// `audio` as 16 kHz mono.
    static func convert(_ audio: PCMAudio) throws -> PCMAudio {
        do {
            try audio.validate()
            let mono = audio.mixedToMono()
            guard mono.sampleRate == PCMAudio.speechSampleRate else {
                throw AudioError.invalidFormat("\(mono.sampleRate) Hz; sessions take 16 kHz")
            }
            return mono
        } catch let error as AudioError {
            throw AIError(.audioSourceFailed, "the audio source gave unusable audio: \(error)", underlying: error)
        }
    }
}

extension SpeechFormat {
    /// `audio` at `rate` Hz with `channels` channels (1, or the audio's own count).
    static func convert(_ audio: PCMAudio, toRate rate: Int, channels: Int) throws -> PCMAudio {
        if audio.sampleRate == rate && audio.channels == channels { return audio }
        let mono = audio.mixedToMono()
        guard mono.sampleRate == rate, channels == 1 else {
            throw AIError(.audioSinkFailed, "speech at \(audio.sampleRate) Hz cannot join speech at \(rate) Hz")
        }
        return mono
    }
}

/// Decides whether a 20 ms frame of 16 kHz mono audio is speech.
enum SpeechDetector {
    /// A new detector (each session has its own state).
    static func make() -> ([Int16]) -> Bool {
        var noise = 200.0
        return { frame in
            var sum = 0.0
            for s in frame { sum += Double(s) * Double(s) }
            let rms = (sum / Double(max(1, frame.count))).squareRoot()
            let speech = rms > max(500, noise * 3)
            if !speech { noise = noise * 0.95 + rms * 0.05 }
            return speech
        }
    }
}
