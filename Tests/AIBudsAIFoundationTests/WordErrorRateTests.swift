import AIBudsAIFoundation
import Foundation
import Testing

/// The word error rate the speech benchmarks and tests measure with.
@Suite struct WordErrorRateTests {
    @Test func theWordErrorRateCountsEachKindOfError() {
        let same = WordErrorRate(reference: "Hey glasses, take a photo.", hypothesis: "hey glasses take a photo")
        #expect(same.rate == 0)
        let wer = WordErrorRate(reference: "please turn the volume down now", hypothesis: "please turn volume down low now")
        #expect(wer.substitutions == 0 && wer.deletions == 1 && wer.insertions == 1 && wer.referenceWords == 6)
        #expect(abs(wer.rate - 2.0 / 6.0) < 1e-9)
        let swapped = WordErrorRate(reference: "take a photo", hypothesis: "Take the photo!")
        #expect(swapped.substitutions == 1 && swapped.deletions == 0 && swapped.insertions == 0)
        #expect(WordErrorRate(reference: "", hypothesis: "").rate == 0)
    }

    @Test func wordsAreNormalizedBeforeTheyAreCompared() {
        #expect(WordErrorRate.words("Don't STOP—the re-recording, please!") == ["don't", "stop", "the", "re", "recording", "please"])
        #expect(WordErrorRate(reference: "one two", hypothesis: "").deletions == 2)
        #expect(WordErrorRate(reference: "", hypothesis: "noise").rate == 1)
    }
}
