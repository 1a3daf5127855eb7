import AIBudsTransfer
import AIBudsEmulator
import AIBudsTestKit
import Foundation
import Testing

/// The engine's stall detector and response-head deadline against a real data plane that trickles,
/// stalls or never answers (docs/reliability.md §7).
@Suite("HTTP download engine: stalls and silent peers", .timeLimit(.minutes(2)))
struct HTTPStallTests {
    /// A configuration whose stall window is a second, with quick retries; the head deadline is a
    /// second where a test is about it and 5 s elsewhere (under Thread Sanitizer on a loaded machine a
    /// healthy head once took longer than a second, and the stall tests failed for the wrong reason).
    private func impatient(retriesWithoutProgress: Int = 2, headTimeout: Duration = .seconds(5)) -> HTTPFileDownloader.Configuration {
        HTTPFileDownloader.Configuration(
            retry: RetryPolicy(maxRetriesWithoutProgress: retriesWithoutProgress, initialBackoff: .milliseconds(5), maxBackoff: .milliseconds(20)),
            stallTimeout: .seconds(1), minimumTransferRate: 1024, responseHeadTimeout: headTimeout)
    }

    @Test func aBodyThatTricklesIsAStallAndFailsTyped() async throws {
        let (fixture, content) = try DownloadFixture.holding("f", bytes: 3_000_000, seed: 21)
        // One byte a second from byte 100,000 on, in every response: alive, but never done.
        fixture.server.setFaults(DataPlaneFaults(trickle: .init(atByte: 100_000, bytesPerSecond: 1)))
        let start = ContinuousClock.now
        await #expect { try await HTTPFileDownloader(configuration: impatient()).download(fixture.request("f", content: content)) } throws: {
            ($0 as? TransferError)?.code == .stalled
        }
        // Three one-second windows and short backoffs; the 30 s I/O timeout never comes into it.
        #expect(ContinuousClock.now - start < .seconds(20))
        // What arrived is kept for a resume.
        #expect(fixture.partialFiles().contains("f.part"))
    }

    @Test func aPeerThatAcceptsAndNeverAnswersMissesTheHeadDeadline() async throws {
        let (fixture, content) = try DownloadFixture.holding("f", bytes: 300_000, seed: 22)
        fixture.server.setFaults(DataPlaneFaults(firstByteDelay: .seconds(3600)))
        let start = ContinuousClock.now
        await #expect { try await HTTPFileDownloader(configuration: impatient(headTimeout: .seconds(1))).download(fixture.request("f", content: content)) } throws: {
            ($0 as? TransferError)?.code == .responseHeadTimeout
        }
        #expect(ContinuousClock.now - start < .seconds(20))
    }

    @Test func aStallMidBodyIsDetectedAndTheDownloadResumes() async throws {
        let (fixture, content) = try DownloadFixture.holding("f", bytes: 3_000_000, seed: 23)
        // A 90 s pause that the default 30 s I/O timeout would sit out; the 1 s stall window does not.
        fixture.server.setFaults(DataPlaneFaults(stall: .init(atByte: 1_500_000, duration: .seconds(90))))
        let start = ContinuousClock.now
        let result = try await HTTPFileDownloader(configuration: impatient()).download(fixture.request("f", content: content))
        #expect(ContinuousClock.now - start < .seconds(20))
        #expect(try fixture.downloaded("f") == content)
        #expect(result.attempts == 2 && result.bytesResumed == 0)
        #expect(fixture.partialFiles().isEmpty)
    }

    @Test func theDefaultsAreSensible() {
        let configuration = HTTPFileDownloader.Configuration()
        #expect(configuration.stallTimeout == .seconds(30))
        #expect(configuration.responseHeadTimeout == .seconds(30))
        #expect(configuration.minimumTransferRate == 1024)
    }
}
