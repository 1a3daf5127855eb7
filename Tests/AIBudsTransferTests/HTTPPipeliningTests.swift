import AIBudsTransfer
import AIBudsDigest
import AIBudsEmulator
import AIBudsLog
import AIBudsSync
import AIBudsTestKit
import Foundation
import Testing

/// Requests sent ahead on a worker's kept-alive connection (HTTP/1.1 pipelining), against the
/// emulator's data plane over real sockets.
@Suite("HTTP download engine: pipelined requests")
struct HTTPPipeliningTests {
    private func configuration(depth: Int) -> HTTPFileDownloader.Configuration {
        HTTPFileDownloader.Configuration(
            retry: RetryPolicy(maxRetries: 50, initialBackoff: .milliseconds(5), maxBackoff: .milliseconds(20)), pipelineDepth: depth)
    }

    @Test(arguments: [1, 2, 4])
    func manySmallFilesArriveVerifiedOverFewConnections(depth: Int) async throws {
        let fixture = try DownloadFixture()
        let (requests, contents) = try fixture.serve(150, prefix: "p", seed: 500) { [1, 4095, 4096, 4097, 65_536, 65_537, 20_000][$0 % 7] + $0 }
        let results = await HTTPFileDownloader(configuration: configuration(depth: depth)).download(requests, parallelism: 2)
        for (index, result) in results.enumerated() {
            #expect(try result.get().attempts == 1)
            #expect(try fixture.downloaded("p\(index)") == contents[index])
        }
        #expect(fixture.server.statistics.connections <= 2)
        #expect(fixture.server.statistics.requests == 150)
        #expect(fixture.partialFiles().isEmpty)
    }

    @Test func aConnectionDroppedInThePipelineLosesNothing() async throws {
        let fixture = try DownloadFixture()
        let (requests, contents) = try fixture.serve(30, prefix: "p", seed: 500) { 65_536 + 3 * $0 }
        // The first response that carries byte 30,000 stops there; the requests sent after it go
        // again on a new connection, and that file resumes.
        fixture.server.setFaults(DataPlaneFaults(closeAtByte: 30_000))
        let results = await HTTPFileDownloader(configuration: configuration(depth: 4)).download(requests, parallelism: 1)
        var attempts = 0
        for (index, result) in results.enumerated() {
            attempts += try result.get().attempts
            #expect(try fixture.downloaded("p\(index)") == contents[index])
        }
        #expect(attempts == 31)
        #expect(fixture.server.statistics.connections == 2)
        #expect(fixture.partialFiles().isEmpty)
    }

    @Test func aFileThatChangesAfterADropInThePipelineIsFetchedAgain() async throws {
        let fixture = try DownloadFixture()
        var (requests, contents) = try fixture.serve(8, prefix: "p", seed: 500) { 200_000 + $0 }
        let newContent = DownloadFixture.bytes(150_000, seed: 77)
        requests[0] = fixture.request("p0")  // its content changes, so no expected size or digest
        // The first file's connection drops at byte 100,000; while the engine waits to retry, the
        // device's file changes (a new entity tag), so the resume's If-Range fails.
        fixture.server.setFaults(DataPlaneFaults(closeAtByte: 100_000))
        let newFile = try fixture.add("p0-new", newContent, generation: 2)
        let catalog = fixture.catalog
        let logger = RetryHook { catalog.set(newFile, named: "p0") }
        let results = await HTTPFileDownloader(configuration: configuration(depth: 3), logger: logger).download(requests, parallelism: 1)
        #expect(logger.fired)
        let first = try results[0].get()
        #expect(try fixture.downloaded("p0") == newContent)
        #expect(first.sha256 == SHA256.hash(newContent) && first.attempts == 2)
        #expect(first.bytesReceived > 150_000)  // the old bytes, then the new file whole
        contents[0] = newContent
        for index in 1..<8 { #expect(try fixture.downloaded("p\(index)") == contents[index]) }
        #expect(fixture.partialFiles().isEmpty)
    }

    @Test func anErrorResponseInThePipelineFailsOnlyItsFile() async throws {
        let fixture = try DownloadFixture()
        var (requests, contents) = try fixture.serve(10, prefix: "p", seed: 500) { 30_000 + $0 }
        requests[4] = fixture.request("missing")
        let results = await HTTPFileDownloader(configuration: configuration(depth: 4)).download(requests, parallelism: 1)
        for (index, result) in results.enumerated() {
            if index == 4 {
                #expect(throws: TransferError.self) { try result.get() }
                if case .failure(let error) = result { #expect(error.httpStatus == 404) }
            } else {
                #expect(try fixture.downloaded("p\(index)") == contents[index])
            }
        }
        contents.removeAll()
        #expect(fixture.partialFiles().isEmpty)
    }

    @Test func cancellingMidPipelineLeavesResumableState() async throws {
        let fixture = try DownloadFixture()
        let (requests, contents) = try fixture.serve(6, prefix: "p", seed: 500) { $0 == 0 ? 2_000_000 : 50_000 + $0 }
        // The first file stalls at 700,000 bytes while the next requests wait on its connection.
        fixture.server.setFaults(DataPlaneFaults(stall: .init(atByte: 700_000, duration: .seconds(90))))
        let downloader = HTTPFileDownloader(configuration: configuration(depth: 4))
        let log = ProgressLog()
        let task = Task { await downloader.download(requests, parallelism: 1) { index, progress in if index == 0 { log.record(progress) } } }
        try await log.wait(forBytes: 700_000)
        let cancelledAt = ContinuousClock.now
        task.cancel()
        let results = await task.value
        #expect(ContinuousClock.now - cancelledAt < .seconds(20))
        #expect(results.allSatisfy { if case .failure(let error) = $0 { error.code == .cancelled } else { false } })
        // The stalled file keeps its bytes and validator; the files sent ahead left nothing.
        #expect(fixture.partialFiles() == ["p0.part", "p0.part.meta"])

        fixture.server.setFaults(.none)
        let again = await HTTPFileDownloader(configuration: configuration(depth: 4)).download(requests, parallelism: 1)
        let first = try again[0].get()
        #expect(first.bytesResumed > 700_000 - 4096 && first.bytesResumed <= 700_000)
        for (index, result) in again.enumerated() {
            _ = try result.get()
            #expect(try fixture.downloaded("p\(index)") == contents[index])
        }
        #expect(fixture.partialFiles().isEmpty)
    }
}

/// A log service that runs an action once, at the first retry the engine logs.
private final class RetryHook: LogService, Sendable {
    private let action: @Sendable () -> Void
    private let done = Locked(false)

    init(action: @escaping @Sendable () -> Void) { self.action = action }

    var minimumLevel: LogLevel { .info }
    var fired: Bool { done.withLock { $0 } }

    func log(_ record: LogRecord) {
        guard record.message.contains("; retry "), done.withLock({ done in defer { done = true }; return !done }) else { return }
        action()
    }
}
