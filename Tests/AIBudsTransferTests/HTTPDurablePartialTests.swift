import AIBudsTransfer
import AIBudsDigest
import AIBudsEmulator
import AIBudsTestKit
import Foundation
import Testing

/// A partial file is resumable whatever ends its download: its resume record is written when its
/// body starts, not when the download stops (docs/reliability.md §5).
@Suite("HTTP download engine: durable partial files", .timeLimit(.minutes(2)))
struct HTTPDurablePartialTests {
    @Test func theResumeRecordIsWrittenWhenTheBodyStarts() async throws {
        let fixture = try DownloadFixture()
        let content = DownloadFixture.bytes(3_000_000, seed: 31)
        let file = try fixture.add("f", content)
        fixture.server.setFaults(DataPlaneFaults(stall: .init(atByte: 2_000_000, duration: .seconds(90))))
        let request = fixture.request("f", content: content)
        let meta = request.partialURL.path + ".meta"
        let download = Task { try await HTTPFileDownloader().download(request) }
        defer { download.cancel() }
        // Mid-file (the data plane stalls): a process killed now leaves a resumable file.
        try await waitFor { FileManager.default.fileExists(atPath: meta) }
        let record = try String(contentsOfFile: meta, encoding: .utf8)
        #expect(record.contains(file.etag) && record.contains("\n3000000\n") && record.contains(request.url))
    }

    @Test func aKeptPrefixThatFailsTheDigestIsFetchedAgainOnce() async throws {
        let fixture = try DownloadFixture()
        let content = DownloadFixture.bytes(3_000_000, seed: 32)
        let file = try fixture.add("f", content)
        let request = fixture.request("f", content: content)
        // The record says these bytes are the file's, but they are not (a power loss left garbage
        // past what the disk had written).
        try FileManager.default.createDirectory(at: request.partialDirectory, withIntermediateDirectories: true)
        var kept = Array(content[0..<1_000_000])
        kept[500_000] ^= 0xFF
        try Data(kept).write(to: request.partialURL)
        try Data("aibuds-partial 1\n\(request.url)\n\(file.etag)\n3000000\n".utf8).write(to: URL(fileURLWithPath: request.partialURL.path + ".meta"))
        let result = try await HTTPFileDownloader().download(request)
        #expect(try fixture.downloaded("f") == content)
        #expect(result.bytesResumed == 0 && result.bytesReceived == 2_000_000 + 3_000_000)
        #expect(fixture.partialFiles().isEmpty)
    }

    /// Polls `condition` every 20 ms until it holds; throws after 20 s.
    private func waitFor(_ condition: @Sendable () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while !condition() {
            guard ContinuousClock.now < deadline else { throw CancellationError() }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
