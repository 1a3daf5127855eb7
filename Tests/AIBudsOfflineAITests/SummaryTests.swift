@testable import AIBudsOfflineAI
import Foundation
import Testing

/// The offline provider's extractive summary.
@Suite(.timeLimit(.minutes(1))) struct SummaryTests {
    @Test func theSummaryKeepsTheMainSentencesInOrder() {
        let text = "The budget for the robot project is approved. Lunch was good. "
            + "The robot project needs two more engineers. The weather is nice. "
            + "We will ship the robot project budget report on Friday."
        let summary = ExtractiveSummarizer.summarize(text, count: 2)
        #expect(summary == "The budget for the robot project is approved. We will ship the robot project budget report on Friday.")
        #expect(ExtractiveSummarizer.summarize("Only one.") == "Only one.")
        #expect(ExtractiveSummarizer.split(String(repeating: "word ", count: 45)).count == 3)
    }
}
