import AIBudsSync
import AIBudsTestKit
import Foundation
import Testing

@testable import AIBuds
@testable import AIBudsImport

extension SDKTests {
    @Suite("Import: device hash requests made ahead of the downloads", .timeLimit(.minutes(3)))
    struct ImportHashPrefetcherTests {
        @Test func cancelReachesTheRequestAWorkerWaitsFor() async throws {
            // The device never answers (a scripted hang): only cancellation ends the request.
            let asked = Locked(false)
            let prefetcher = HashPrefetcher(names: ["A.jpg", "B.jpg"], lookahead: 1) { _ in
                asked.withLock { $0 = true }
                try await Task.sleep(for: .seconds(600))
                return nil
            }
            let started = ContinuousClock.now
            async let waited = onOwnThread { prefetcher.wait(0) }
            do {
                try await eventually("the hash request to be made") { asked.withLock { $0 } }
            } catch {
                // The waiting thread ends only through `cancel`: without it, leaving this scope
                // would wait for `waited` forever.
                prefetcher.cancel()
                throw error
            }
            prefetcher.cancel()
            let result = try await waited
            #expect(throws: CancellationError.self) { try result.get() }
            #expect(ContinuousClock.now - started < .seconds(30))
        }

        @Test func answersComeBackForEachFile() async throws {
            let prefetcher = HashPrefetcher(names: ["A.jpg", nil, "C.jpg"], lookahead: 2) { name in Array(name.utf8) }
            let first = try await onOwnThread { try prefetcher.wait(0).get() }
            let third = try await onOwnThread { try prefetcher.wait(2).get() }
            #expect(first == Array("A.jpg".utf8))
            #expect(third == Array("C.jpg".utf8))
        }
    }
}
