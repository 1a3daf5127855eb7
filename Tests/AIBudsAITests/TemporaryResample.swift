import AIBudsAudio

extension PCMAudio {
    func speechFormat() throws -> PCMAudio {
        let mono = mixedToMono()
        let count = Int(Double(mono.frameCount) * 16_000 / Double(mono.sampleRate))
        var out = [Int16](repeating: 0, count: count)
        for i in 0..<count {
            let x = Double(i) * Double(mono.sampleRate) / 16_000
            let j = min(Int(x), mono.frameCount - 1)
            out[i] = mono.samples[j]
        }
        return PCMAudio(sampleRate: 16_000, channels: 1, samples: out)
    }
}
