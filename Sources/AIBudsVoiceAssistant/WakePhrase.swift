import AIBudsAIFoundation

/// A wake phrase ("hey glasses") and how it is found at the start of a transcript: the transcript's
/// first words are compared with the phrase letter by letter, so a recognizer's near miss ("hey
/// glass is", "hay glasses") still wakes, and speech that merely contains the words later does not.
public struct WakePhrase: Sendable, Equatable {
    /// The phrase's words, lowercased.
    public let words: [String]
    /// The letters that may differ between what was heard and the phrase (about one in five).
    public let tolerance: Int

    /// A wake phrase; an empty one is refused.
    public init?(_ phrase: String) {
        words = AIIntentGrammar.words(of: phrase)
        guard !words.isEmpty else { return nil }
        tolerance = max(1, words.joined().count / 5)
    }

    /// The words of `transcript` after the wake phrase when the transcript starts with it (or with
    /// one word before it, "okay hey glasses"); nil when it does not.
    public func command(in transcript: String) -> [String]? {
        let heard = AIIntentGrammar.words(of: transcript)
        let target = Array(words.joined())
        var best: (distance: Int, end: Int)?
        for skip in 0...min(1, heard.count) {
            // What was heard may split or join the phrase's words: try one word fewer and more,
            // and keep the closest.
            for count in max(1, words.count - 1)...(words.count + 1) where skip + count <= heard.count {
                let distance = Self.distance(Array(heard[skip..<(skip + count)].joined()), target) + skip
                if distance <= tolerance, distance < best?.distance ?? .max { best = (distance, skip + count) }
            }
        }
        return best.map { Array(heard[$0.end...]) }
    }

    /// The Levenshtein distance between two letter sequences.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
