import Foundation

/// How far a transcript is from what was said: the word error rate, (substitutions + deletions +
/// insertions) / words said, after both are normalized (lowercase, punctuation dropped, apostrophes
/// kept inside words, hyphens as spaces).
public struct WordErrorRate: Sendable, Equatable {
    /// Words of the reference that became another word.
    public var substitutions: Int
    /// Words of the reference missing from the transcript.
    public var deletions: Int
    /// Words of the transcript that were not said.
    public var insertions: Int
    /// How many words the reference has, after normalization: the rate's denominator.
    public var referenceWords: Int

    /// The rate: errors over reference words (0 for two empty texts, 1 per word for an empty reference).
    public var rate: Double {
        let errors = substitutions + deletions + insertions
        return referenceWords == 0 ? Double(errors) : Double(errors) / Double(referenceWords)
    }

    /// Compares `hypothesis` with `reference` word by word (Levenshtein over words).
    public init(reference: String, hypothesis: String) {
        let said = Self.words(reference)
        let heard = Self.words(hypothesis)
        // Each cell: (cost, substitutions, deletions, insertions) of the best alignment so far.
        typealias Cell = (cost: Int, s: Int, d: Int, i: Int)
        var previous: [Cell] = (0...heard.count).map { ($0, 0, 0, $0) }
        for (row, word) in said.enumerated() {
            var current: [Cell] = [(row + 1, 0, row + 1, 0)]
            for (column, other) in heard.enumerated() {
                let diagonal = previous[column]
                let match: Cell = word == other
                    ? diagonal : (diagonal.cost + 1, diagonal.s + 1, diagonal.d, diagonal.i)
                let up = previous[column + 1]
                let deletion: Cell = (up.cost + 1, up.s, up.d + 1, up.i)
                let left = current[column]
                let insertion: Cell = (left.cost + 1, left.s, left.d, left.i + 1)
                current.append([match, deletion, insertion].min { $0.cost < $1.cost }!)
            }
            previous = current
        }
        let best = previous[heard.count]
        substitutions = best.s
        deletions = best.d
        insertions = best.i
        referenceWords = said.count
    }

    /// The normalized words of `text`.
    public static func words(_ text: String) -> [String] {
        var cleaned = ""
        for character in text.lowercased() {
            if character.isLetter || character.isNumber || character == "'" {
                cleaned.append(character)
            } else {
                cleaned.append(" ")
            }
        }
        return cleaned.split(separator: " ").map { $0.trimmingCharacters(in: .init(charactersIn: "'")) }.filter { !$0.isEmpty }
    }
}
