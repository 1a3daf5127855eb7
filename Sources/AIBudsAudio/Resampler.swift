import AIBudsPCM
import CSoxr

extension PCMAudio {
    /// The audio at `rate` Hz, resampled by libsoxr at its high quality (20-bit, linear phase);
    /// the same audio when the rate already matches.
    public func resampled(to rate: Int) throws -> PCMAudio {
        try validate()
        guard (1...768_000).contains(rate) else { throw AudioError.invalidFormat("target rate \(rate) Hz") }
        guard rate != sampleRate else { return self }
        guard !samples.isEmpty else { return PCMAudio(sampleRate: rate, channels: channels, samples: []) }
        let outFrames = Int((Double(frameCount) * Double(rate) / Double(sampleRate)).rounded(.up)) + 16
        var output = [Int16](repeating: 0, count: outFrames * channels)
        var ioSpec = soxr_io_spec(SOXR_INT16_I, SOXR_INT16_I)
        var quality = soxr_quality_spec(UInt(SOXR_HQ), 0)
        var done = 0
        let error = samples.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                soxr_oneshot(Double(sampleRate), Double(rate), UInt32(channels),
                             UnsafeRawPointer(input.baseAddress), frameCount, nil,
                             UnsafeMutableRawPointer(out.baseAddress), outFrames, &done,
                             &ioSpec, &quality, nil)
            }
        }
        if let error { throw AudioError.codec(library: "libsoxr", code: -1, message: String(cString: error)) }
        return PCMAudio(sampleRate: rate, channels: channels, samples: Array(output.prefix(done * channels)))
    }

    /// The audio as the speech format: mono, 16 kHz.
    public func speechFormat() throws -> PCMAudio {
        try mixedToMono().resampled(to: PCMAudio.speechSampleRate)
    }
}
