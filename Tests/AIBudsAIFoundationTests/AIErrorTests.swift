import AIBudsAIFoundation
import Foundation
import Testing

/// The AI side's errors as apps see them: their codes, domain and messages through `NSError`.
@Suite struct AIErrorTests {
    @Test func anAIErrorKeepsItsCodeAndMessageThroughNSError() {
        let error = AIError(.providerUnavailable, "no plugin for starBurst")
        let bridged = error as NSError
        #expect(bridged.domain == AIBudsAIErrorDomain)
        #expect(bridged.code == 8003)
        #expect(bridged.localizedDescription.contains("no plugin for starBurst"))
        #expect(AIErrorCode.allCases.map(\.rawValue) == Array(8001...(8000 + AIErrorCode.allCases.count)))
    }
}
