import AIBudsAIFoundation
import Foundation

/// Moonshine's vocabulary (`tokenizer.bin`): token `i` is the `i`-th record, a length (one byte
/// below 128, else two: `first - 128 + second × 128`) followed by that many bytes. Tokens 0–2 are
/// `<unk>`, `<s>` and `</s>`; tokens 3–258 are single raw bytes; "▁" (U+2581) marks a space.
struct MoonshineTokenizer: Sendable {
    /// Beginning of the text, the decoder's first input.
    static let start: Int64 = 1
    /// End of the text.
    static let end: Int64 = 2
    /// The largest file read (the shipped one is about 250 KB).
    static let maximumFileSize = 16 << 20

    private let tokens: [[UInt8]]
    /// The token that is a bare space ("▁"), when the vocabulary has one.
    let blank: Int64?

    /// How many tokens the vocabulary has.
    var count: Int { tokens.count }

    /// Parses the vocabulary; a record that runs past the end is an error.
    init(_ bytes: [UInt8]) throws {
        var tokens: [[UInt8]] = []
        var index = 0
        while index < bytes.count {
            var length = Int(bytes[index])
            index += 1
            if length >= 128 {
                guard index < bytes.count else { throw AIError(.engineFailed, "Moonshine's tokenizer.bin ends inside a length") }
                length = length - 128 + Int(bytes[index]) * 128
                index += 1
            }
            guard index + length <= bytes.count else {
                throw AIError(.engineFailed, "Moonshine's tokenizer.bin: token \(tokens.count) runs past the end")
            }
            tokens.append(Array(bytes[index..<(index + length)]))
            index += length
        }
        guard tokens.count > 259 else { throw AIError(.engineFailed, "Moonshine's tokenizer.bin holds only \(tokens.count) tokens") }
        self.tokens = tokens
        blank = tokens.firstIndex(of: Array("\u{2581}".utf8)).map(Int64.init)
    }

    /// The text of `ids`: their bytes joined (special tokens and ids past the vocabulary left out),
    /// "▁" turned into spaces, decoded as UTF-8 with broken sequences replaced, trimmed.
    func text(_ ids: [Int64]) -> String {
        var bytes: [UInt8] = []
        for id in ids where id > Self.end && id < Int64(tokens.count) {
            bytes += tokens[Int(id)]
        }
        let marker: [UInt8] = [0xE2, 0x96, 0x81]
        var spaced: [UInt8] = []
        spaced.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if index + 3 <= bytes.count, bytes[index] == marker[0], bytes[index + 1] == marker[1], bytes[index + 2] == marker[2] {
                spaced.append(0x20)
                index += 3
            } else {
                spaced.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: spaced, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
