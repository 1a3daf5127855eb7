@testable import AIBudsTransfer
import AIBudsDigest
import AIBudsEmulator
import AIBudsSync
import AIBudsTestKit
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Small new files are written unnamed in their destination (`O_TMPFILE`) and linked to their
/// name by their commit; `unnamedFileLimit` 0 sends them through `.partial/` as before.
@Suite("HTTP download engine: small files written unnamed")
struct HTTPUnnamedFileTests {
    private func configuration(unnamedFileLimit: Int64 = 1 << 20) -> HTTPFileDownloader.Configuration {
        var configuration = HTTPFileDownloader.Configuration(
            retry: RetryPolicy(maxRetries: 50, initialBackoff: .milliseconds(5), maxBackoff: .milliseconds(20)))
        configuration.unnamedFileLimit = unnamedFileLimit
        return configuration
    }

    /// Whether the fixture's destination takes unnamed files (else the engine uses `.partial/`).
    private func takesUnnamedFiles(_ fixture: DownloadFixture) -> Bool {
        let fd = open(fixture.destination.path, O_RDWR | O_CLOEXEC | PartialFile.temporaryFlag, 0o644)
        guard fd >= 0 else { return false }
        close(fd)
        return FileManager.default.fileExists(atPath: "/proc/self/fd")
    }

    /// Everything in the destination folder, hidden names included.
    private func listing(_ fixture: DownloadFixture) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: fixture.destination.path).sorted()
    }

    @Test func aSmallFileHasNoNameAnywhereUntilItIsCompleteAndVerified() async throws {
        let fixture = try DownloadFixture()
        guard takesUnnamedFiles(fixture) else { return }
        let content = DownloadFixture.bytes(500_000, seed: 21)
        try fixture.add("f", content)
        // The pause splits the body, so that a progress report comes mid-file.
        fixture.server.setFaults(DataPlaneFaults(stall: .init(atByte: 200_000, duration: .milliseconds(50))))
        let request = fixture.request("f", content: content)
        let downloader = HTTPFileDownloader(configuration: configuration())
        // Looked at mid-file from the progress callback, on the download's thread, so always
        // before the commit.
        let seen = Locked<[String]?>(nil)
        let destination = fixture.destination.path
        let result = try await downloader.download(request) { progress in
            guard progress.bytesTransferred >= 100_000, progress.bytesTransferred < 500_000, seen.withLock({ $0 == nil }) else { return }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: destination)) ?? ["?"]
            seen.withLock { $0 = names }
        }
        // Mid-file: neither the final name nor a `.partial/` entry existed.
        #expect(seen.withLock { $0 } == [])
        #expect(result.size == 500_000 && result.attempts == 1)
        #expect(try fixture.downloaded("f") == content)
        #expect(try listing(fixture) == ["f"])
    }

    @Test func aSmallFileThatFailsVerificationLeavesNothing() async throws {
        let (fixture, content) = try DownloadFixture.holding("f", bytes: 100_000, seed: 22)
        var wrongDigest = fixture.request("f", content: content)
        wrongDigest.expectedSHA256 = SHA256.hash(Array("other".utf8))
        let downloader = HTTPFileDownloader(configuration: configuration())
        await #expect { try await downloader.download(wrongDigest) } throws: { ($0 as? TransferError)?.code == .checksumMismatch }
        #expect(try listing(fixture) == [])
    }

    @Test(arguments: [Int64(1 << 20), 0])
    func aFileThatAppearsDuringTheDownloadIsNeverReplaced(unnamedFileLimit: Int64) async throws {
        let (fixture, content) = try DownloadFixture.holding("f", bytes: 400_000, seed: 23)
        let existing = fixture.destination.appendingPathComponent("f")
        let request = fixture.request("f", content: content)
        let written = Locked(false)
        let downloader = HTTPFileDownloader(configuration: configuration(unnamedFileLimit: unnamedFileLimit))
        let task = Task {
            try await downloader.download(request) { progress in
                guard progress.bytesTransferred >= 100_000, written.withLock({ done in defer { done = true }; return !done }) else { return }
                try? Data("theirs".utf8).write(to: existing)
            }
        }
        await #expect { try await task.value } throws: { ($0 as? TransferError)?.code == .fileExists }
        #expect(written.withLock { $0 })
        #expect(try Data(contentsOf: existing) == Data("theirs".utf8))
        if unnamedFileLimit == 0 || !takesUnnamedFiles(fixture) {
            #expect(fixture.partialFiles() == ["f.part", "f.part.meta"])
        } else {
            // The unnamed file's bytes go with it; nothing else is left.
            #expect(try listing(fixture) == ["f"])
        }
    }

    @Test func aFileAlreadyThereIsNeverReplaced() async throws {
        let (fixture, content) = try DownloadFixture.holding("f", bytes: 10_000, seed: 24)
        let existing = fixture.destination.appendingPathComponent("f")
        try Data("mine".utf8).write(to: existing)
        // As the import hands it over: the name was looked at (and found free) by the caller, so
        // the engine does not look again; the link at the commit still refuses the name.
        var request = fixture.request("f", content: content)
        request.finalNameCheckedFree = true
        let downloader = HTTPFileDownloader(configuration: configuration())
        let results = await downloader.download([request])
        #expect(throws: TransferError.self) { try results[0].get() }
        if case .failure(let error) = results[0] { #expect(error.code == .fileExists) }
        #expect(try Data(contentsOf: existing) == Data("mine".utf8))
        if takesUnnamedFiles(fixture) { #expect(try listing(fixture) == ["f"]) }
    }

    @Test func aDropMidFileResumesOnTheOpenFileWithinTheDownload() async throws {
        let fixture = try DownloadFixture()
        guard takesUnnamedFiles(fixture) else { return }
        let content = DownloadFixture.bytes(600_000, seed: 25)
        try fixture.add("f", content)
        fixture.server.setFaults(DataPlaneFaults(closeAtByte: 300_123))
        let result = try await HTTPFileDownloader(configuration: configuration()).download(fixture.request("f", content: content))
        #expect(try fixture.downloaded("f") == content)
        #expect(result.attempts == 2)
        // A Range request for the rest: at most the last partial block came twice.
        #expect(result.bytesReceived >= 600_000 && result.bytesReceived < 600_000 + 4096)
        #expect(try listing(fixture) == ["f"])
    }

    @Test func aBatchOfSmallFilesWithDropsLosesNothing() async throws {
        let fixture = try DownloadFixture()
        let (requests, contents) = try fixture.serve(40, prefix: "u", seed: 500) { 65_536 + $0 }
        fixture.server.setFaults(DataPlaneFaults(closeAtByte: 30_000))
        let results = await HTTPFileDownloader(configuration: configuration()).download(requests, parallelism: 4)
        for result in results { _ = try result.get() }
        for index in 0..<40 { #expect(try fixture.downloaded("u\(index)") == contents[index]) }
        #expect(try listing(fixture) == (0..<40).map { "u\($0)" }.sorted())
    }

    @Test(arguments: [Int64(1 << 20), 0])
    func cancellingASmallFileKeepsAPartialFileOnlyThroughPartial(unnamedFileLimit: Int64) async throws {
        let (fixture, content) = try DownloadFixture.holding("f", bytes: 500_000, seed: 26)
        fixture.server.setFaults(DataPlaneFaults(stall: .init(atByte: 200_000, duration: .seconds(90))))
        let downloader = HTTPFileDownloader(configuration: configuration(unnamedFileLimit: unnamedFileLimit))
        let log = ProgressLog()
        let request = fixture.request("f", content: content)
        // In a batch, as the import runs files: only then does the engine know `.partial/` has no state of the file.
        let task = Task { try await downloader.download([request]) { _, progress in log.record(progress) }[0].get() }
        try await log.wait(forBytes: 200_000)
        if unnamedFileLimit == 0 || !takesUnnamedFiles(fixture) {
            // With its resume record, written when the body started (docs/reliability.md §5).
            #expect(fixture.partialFiles() == ["f.part", "f.part.meta"])
        } else {
            #expect(try listing(fixture) == [])
        }
        task.cancel()
        let keeps = unnamedFileLimit == 0 || !takesUnnamedFiles(fixture)
        // The error says what a resume will find.
        await #expect { try await task.value } throws: { error in
            guard let error = error as? TransferError, error.code == .cancelled else { return false }
            return error.message.hasSuffix(keeps ? "its partial file is kept for a resume" : "nothing of it was kept")
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.destination.appendingPathComponent("f").path))
        if keeps {
            #expect(fixture.partialFiles() == ["f.part", "f.part.meta"])
        } else {
            #expect(try listing(fixture) == [])
        }
        // Either way the next download gets the whole file.
        fixture.server.setFaults(.none)
        _ = try await HTTPFileDownloader(configuration: configuration(unnamedFileLimit: unnamedFileLimit)).download([request])[0].get()
        #expect(try fixture.downloaded("f") == content)
        #expect(try listing(fixture) == ["f"])
    }

    @Test func hostileNamesOfKnownSizeLandSafelyInsideTheDestination() async throws {
        let fixture = try DownloadFixture()
        let names = ["../escape.jpg", "/etc/cron.d/x", "a\u{0}b", ".", "..", ".partial", "Same.JPG", "same.jpg", "cafe\u{301}.mp4"]
        var requests: [DownloadRequest] = []
        var expected: [String: [UInt8]] = [:]
        for (index, (name, assigned)) in zip(names, SafeFileName.assign(names)).enumerated() {
            let content = Array("content-\(index)".utf8)
            try fixture.add(name, content)
            let localName = try assigned.get()
            requests.append(fixture.request(name, content: content, localName: localName))
            expected[localName] = content
        }
        let results = await HTTPFileDownloader(configuration: configuration()).download(requests)
        for result in results { _ = try result.get() }
        #expect(try listing(fixture) == expected.keys.sorted())
        for (localName, content) in expected { #expect(try fixture.downloaded(localName) == content) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.root.path).sorted() == ["dest", "device"])
    }
}
