import Foundation

/// A summary without a model: the text's most representative sentences, in their order.
///
/// Each sentence scores the mean document frequency of its content words (stop words left out);
/// the best `count` sentences are kept. It selects, it does not rephrase: good at keeping a
/// transcript's main points, poor at a long discussion whose points are spread thin. Text without
/// punctuation (a PocketSphinx transcript) is cut into 20-word pieces first.
enum ExtractiveSummarizer {
    static let stopWords: Set<String> = [
        "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "from", "has", "have", "he", "her", "his",
        "i", "in", "is", "it", "its", "me", "my", "of", "on", "or", "our", "she", "so", "that", "the", "their",
        "them", "then", "there", "they", "this", "to", "us", "was", "we", "were", "what", "when", "which", "who",
        "will", "with", "you", "your", "do", "does", "did", "not", "no", "yes", "can", "could", "would", "should",
        "just", "also", "very", "all", "any", "some", "about", "into", "out", "up", "if", "than", "too", "been",
        "am", "um", "uh", "okay", "ok", "let's", "i'm", "it's", "we're", "that's",
    ]

    /// The `count` best sentences of `text`, joined; the text itself when it is that short.
    static func summarize(_ text: String, count: Int = 2) -> String {
        let sentences = split(text)
        guard sentences.count > count else { return sentences.joined(separator: " ") }
        let wordsPerSentence = sentences.map(contentWords)
        var frequency: [String: Int] = [:]
        for words in wordsPerSentence { for word in Set(words) { frequency[word, default: 0] += 1 } }
        let scores = wordsPerSentence.map { words -> Double in
            guard !words.isEmpty else { return 0 }
            return Double(words.reduce(0) { $0 + (frequency[$1] ?? 0) }) / Double(words.count).squareRoot()
        }
        let best = scores.indices.sorted { scores[$0] != scores[$1] ? scores[$0] > scores[$1] : $0 < $1 }.prefix(count)
        return best.sorted().map { sentences[$0] }.joined(separator: " ")
    }

    static func split(_ text: String) -> [String] {
        var sentences: [String] = []
        var current = ""
        for character in text {
            current.append(character)
            if ".!?".contains(character) {
                let sentence = current.trimmingCharacters(in: .whitespacesAndNewlines)
                if !sentence.isEmpty { sentences.append(sentence) }
                current = ""
            }
        }
        let rest = current.trimmingCharacters(in: .whitespacesAndNewlines)
        if !rest.isEmpty {
            let words = rest.split(separator: " ")
            stride(from: 0, to: words.count, by: 20).forEach {
                sentences.append(words[$0..<min(words.count, $0 + 20)].joined(separator: " "))
            }
        }
        return sentences
    }

    private static func contentWords(_ sentence: String) -> [String] {
        sentence.lowercased().split { !$0.isLetter && !$0.isNumber && $0 != "'" }.map(String.init)
            .filter { !stopWords.contains($0) && $0.count > 1 }
    }
}
