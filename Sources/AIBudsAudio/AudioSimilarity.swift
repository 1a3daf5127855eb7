import AIBudsPCM
import Foundation

/// How alike two recordings of the same sound are, after a codec or a lossy link: the correlation
/// of their energy envelopes (10 ms RMS in dB) at the best alignment. Robust to codec phase and
/// small level changes, sensitive to missing or misplaced syllables.
public enum AudioSimilarity {
    /// The envelope of `audio` (mono or mixed to mono): one RMS level in dB per `window` samples.
    public static func envelope(_ audio: PCMAudio, window: Int = 160) -> [Double] {
        let mono = audio.mixedToMono().samples
        guard window > 0 else { return [] }
        return stride(from: 0, to: mono.count - window + 1, by: window).map { start in
            var sum = 0.0
            for s in mono[start..<(start + window)] { sum += Double(s) * Double(s) }
            return 10 * log10(sum / Double(window) + 1)
        }
    }

    /// The best Pearson correlation of the two envelopes over lags up to `maxLag` windows (either
    /// way), and that lag in windows (positive: `b` is late). Both audios must have the same rate.
    public static func envelopeCorrelation(_ a: PCMAudio, _ b: PCMAudio, window: Int = 160, maxLag: Int = 50)
        -> (correlation: Double, lag: Int)
    {
        let x = envelope(a, window: window)
        let y = envelope(b, window: window)
        var best = (correlation: -1.0, lag: 0)
        for lag in -maxLag...maxLag {
            var pairs: [(Double, Double)] = []
            for i in x.indices where i + lag >= 0 && i + lag < y.count { pairs.append((x[i], y[i + lag])) }
            guard pairs.count >= 10 else { continue }
            let r = pearson(pairs)
            if r > best.correlation { best = (r, lag) }
        }
        return best
    }

    private static func pearson(_ pairs: [(Double, Double)]) -> Double {
        let n = Double(pairs.count)
        let mx = pairs.reduce(0) { $0 + $1.0 } / n
        let my = pairs.reduce(0) { $0 + $1.1 } / n
        var sxy = 0.0, sxx = 0.0, syy = 0.0
        for (x, y) in pairs {
            sxy += (x - mx) * (y - my)
            sxx += (x - mx) * (x - mx)
            syy += (y - my) * (y - my)
        }
        guard sxx > 0, syy > 0 else { return 0 }
        return sxy / (sxx * syy).squareRoot()
    }
}
