import AIBudsAIFoundation

/// A wake phrase ("hey glasses") and how it is found at the start of a transcript, the way a
/// recognizer mishears it: the phrase's long words ("glasses") may differ in about one letter in
/// three ("lashes", "glosses"), its short ones ("hey") may be heard as a word that rhymes ("hay",
/// "pay", "K", "paying"), a prefix may be glued to a long word ("peglasses"), and the whole may
/// differ by one letter however it is split ("hey glass is"). One word may come before it ("okay,
/// hey glasses"). Speech that merely has the words later, or "the glasses" at its start, does not
/// wake.
public struct WakePhrase: Sendable, Equatable {
    /// The phrase's words, lowercased.
    public let words: [String]
    /// The letters the whole phrase may differ by, however its words are split (one in ten).
    public let tolerance: Int

    /// A wake phrase; an empty one is refused.
    public init?(_ phrase: String) {
        words = AIIntentGrammar.words(of: phrase)
        guard !words.isEmpty else { return nil }
        tolerance = max(1, words.joined().count / 10)
    }

    /// The words of `transcript` after the wake phrase when the transcript starts with it (or with
    /// one word before it, "okay hey glasses"); nil when it does not.
    public func command(in transcript: String) -> [String]? {
        let heard = AIIntentGrammar.words(of: transcript)
        for skip in 0...min(1, heard.count) {
            if let end = joined(heard, from: skip) ?? wordByWord(heard, from: skip) { return Array(heard[end...]) }
        }
        return nil
    }

    /// Where the phrase ends when `heard` says it word by word from `start` (long words close in
    /// letters, short ones rhyming, a long word perhaps glued to a short prefix).
    private func wordByWord(_ heard: [String], from start: Int) -> Int? {
        var index = start
        var position = 0
        while position < words.count {
            guard index < heard.count else { return nil }
            let said = heard[index]
            let word = words[position]
            // After a word before the phrase, no rhymes: "they say glasses are..." is no wake.
            if Self.sounds(said, like: word, rhyming: start == 0) {
                position += 1
            } else if position + 1 < words.count, case let next = words[position + 1], next.count >= 5,
                said.count > next.count, said.count - next.count <= 3, Self.sounds(String(said.suffix(next.count)), like: next, rhyming: false)
            {
                // "peglasses": a short word glued to the long one after it.
                position += 2
            } else {
                return nil
            }
            index += 1
        }
        return index
    }

    /// Where the phrase ends when `heard`'s words from `start`, joined, differ from the phrase's by
    /// at most ``tolerance`` letters (one word fewer or more than the phrase).
    private func joined(_ heard: [String], from start: Int) -> Int? {
        let target = Array(words.joined())
        for count in max(1, words.count - 1)...(words.count + 1) where start + count <= heard.count {
            if Self.distance(Array(heard[start..<(start + count)].joined()), target) <= tolerance { return start + count }
        }
        return nil
    }

    /// Whether `said` may be `word` misheard: a long word within a letter in three, a short word
    /// within a letter or, when `rhyming`, rhyming with it.
    static func sounds(_ said: String, like word: String, rhyming: Bool) -> Bool {
        if word.count >= 5 { return distance(Array(said), Array(word)) <= word.count / 3 }
        return distance(Array(said), Array(word)) <= 1 || (rhyming && rhyme(said) == rhyme(word))
    }

    /// The sound a short word ends in: from its last vowel on, "-ing" dropped, the spellings of
    /// the "ay" sound (hey, hay, pay, they, K) made one.
    static func rhyme(_ word: String) -> String {
        var letters = word
        if letters.count > 4, letters.hasSuffix("ing") { letters.removeLast(3) }
        if letters == "k" || letters == "a" { return "ay" }
        let vowels: Set<Character> = ["a", "e", "i", "o", "u", "y"]
        guard let last = letters.lastIndex(where: { vowels.contains($0) }) else { return letters }
        var start = last
        while start > letters.startIndex, vowels.contains(letters[letters.index(before: start)]) { start = letters.index(before: start) }
        // A leading "y" is a consonant ("yes"), a trailing one a vowel ("hey").
        let ending = String(letters[start...])
        switch ending {
        case "ey", "ay", "ei", "eigh", "aye": return "ay"
        default: return ending
        }
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
