import AIBudsTransfer
import AIBudsDigest
import AIBudsEmulator
import AIBudsSync
import AIBudsTestKit
import Foundation
import Testing

@Suite("HTTP download engine against the real data plane")
struct HTTPFileDownloaderTests {
    private func quickRetries(_ maxRetries: Int = 50) -> HTTPFileDownloader.Configuration {
        HTTPFileDownloader.Configuration(retry: RetryPolicy(maxRetries: maxRetries, initialBackoff: .milliseconds(5), maxBackoff: .milliseconds(20)))
    }

    @Test func downloadsByteIdenticallyWithProgressAndLeavesNoPartialFile() async throws {
        let (fixture, content) = try DownloadFixture.holding("VID_0001.mp4", bytes: 3_000_000)
        let log = ProgressLog()
        let result = try await HTTPFileDownloader().download(fixture.request("VID_0001.mp4", content: content)) { log.record($0) }
        #expect(try fixture.downloaded("VID_0001.mp4") == content)
        #expect(result.size == 3_000_000 && result.sha256 == SHA256.hash(content))
        #expect(result.attempts == 1 && result.bytesReceived == 3_000_000 && result.bytesResumed == 0)
        #expect(fixture.partialFiles().isEmpty)
        let reports = log.all
        #expect(reports.last?.bytesTransferred == 3_000_000)
        #expect(reports.allSatisfy { $0.totalBytes == 3_000_000 })
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.bytesTransferred < $1.bytesTransferred })
        #expect(reports.reduce(0) { $0 + $1.chunkBytes } == 3_000_000)
    }

    @Test func keepsConnectionsAliveAcrossFiles() async throws {
        let fixture = try DownloadFixture()
        let (requests, contents) = try fixture.serve(40, prefix: "f", seed: 0) { 1000 + $0 }
        let downloader = HTTPFileDownloader()
        let serial = await downloader.download(Array(requests[0..<20]), parallelism: 1)
        #expect(serial.allSatisfy { (try? $0.get()) != nil })
        #expect(fixture.server.statistics.connections == 1)
        let parallel = await downloader.download(Array(requests[20...]), parallelism: 4)
        #expect(parallel.allSatisfy { (try? $0.get()) != nil })
        #expect(fixture.server.statistics.connections <= 4)
        for index in 0..<40 { #expect(try fixture.downloaded("f\(index)") == contents[index]) }
    }

    @Test func directWritesOfSizesThatAreNotWholeBlocksAreByteIdentical() async throws {
        let fixture = try DownloadFixture()
        // Under a block (written buffered), a block less one, whole blocks, and whole blocks with a
        // tail (direct, then the tail buffered), also across the 1 MiB download buffer.
        let sizes = [1, 4095, 4096, 4097, 8191, 65_536, 65_537, 1_048_575, 1_048_577, 3_000_001]
        var requests: [DownloadRequest] = []
        for (index, size) in sizes.enumerated() {
            let content = DownloadFixture.bytes(size, seed: UInt64(200 + index))
            try fixture.add("s\(size)", content)
            requests.append(fixture.request("s\(size)", content: content))
        }
        let results = await HTTPFileDownloader().download(requests, parallelism: 3)
        for (index, size) in sizes.enumerated() {
            let result = try results[index].get()
            #expect(result.size == Int64(size))
            #expect(try fixture.downloaded("s\(size)") == DownloadFixture.bytes(size, seed: UInt64(200 + index)))
        }
        #expect(fixture.partialFiles().isEmpty)
    }

    @Test func aBatchResumesFilesWithStateAndCreatesTheOthersAfresh() async throws {
        let fixture = try DownloadFixture()
        var requests: [DownloadRequest] = []
        var contents: [[UInt8]] = []
        for index in 0..<12 {
            let content = DownloadFixture.bytes(65_536 + 100 * index, seed: UInt64(300 + index))
            let file = try fixture.add("b\(index)", content)
            let request = fixture.request("b\(index)", content: content)
            requests.append(request)
            contents.append(content)
            try FileManager.default.createDirectory(at: request.partialDirectory, withIntermediateDirectories: true)
            switch index {
            case 3:  // resumable: bytes and their validator
                try Data(content[0..<8192]).write(to: request.partialURL)
                try Data("aibuds-partial 1\n\(request.url)\n\(file.etag)\n\(content.count)\n".utf8)
                    .write(to: URL(fileURLWithPath: request.partialURL.path + ".meta"))
            case 5:  // bytes without a validator: start over
                try Data(repeating: 0xEE, count: 5000).write(to: request.partialURL)
            case 7:  // a validator without bytes
                try Data("aibuds-partial 1\n\(request.url)\n\(file.etag)\n\(content.count)\n".utf8)
                    .write(to: URL(fileURLWithPath: request.partialURL.path + ".meta"))
            default: break
            }
        }
        let results = await HTTPFileDownloader().download(requests, parallelism: 4)
        for index in 0..<12 {
            let result = try results[index].get()
            #expect(result.bytesResumed == (index == 3 ? 8192 : 0))
            #expect(try fixture.downloaded("b\(index)") == contents[index])
        }
        #expect(fixture.partialFiles().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: requests[0].partialDirectory.path))
    }

    @Test func aConnectionDroppedInABatchOfSmallFilesLosesNothing() async throws {
        let fixture = try DownloadFixture()
        let (requests, contents) = try fixture.serve(60, prefix: "d", seed: 400) { _ in 65_536 }
        fixture.server.setFaults(DataPlaneFaults(closeAtByte: 30_000))
        let results = await HTTPFileDownloader(configuration: quickRetries()).download(requests, parallelism: 4)
        #expect(results.reduce(0) { $0 + ((try? $1.get().attempts) ?? 0) } == 61)
        for index in 0..<60 { #expect(try fixture.downloaded("d\(index)") == contents[index]) }
        #expect(fixture.partialFiles().isEmpty)
    }

    @Test(arguments: [3_000_000, 12_000_000])  // direct writes across the 1 MiB buffer, and a large body
    func resumesAfterADroppedConnectionWithoutRefetching(size: Int) async throws {
        let (fixture, content) = try DownloadFixture.holding("f", bytes: size, seed: 2)
        fixture.server.setFaults(DataPlaneFaults(closeAtByte: Int64(size / 3 + 1234)))
        let result = try await HTTPFileDownloader(configuration: quickRetries()).download(fixture.request("f", content: content))
        #expect(try fixture.downloaded("f") == content)
        #expect(result.attempts == 2)
        // At most the last partial block before the drop is fetched twice (see PartialFile).
        #expect(result.bytesReceived >= Int64(size) && result.bytesReceived < Int64(size) + 4096)
        #expect(fixture.server.statistics.bodyBytesSent == result.bytesReceived)
        #expect(fixture.partialFiles().isEmpty)
    }

    @Test func resumesFromAPartialFileLeftByAnEarlierRun() async throws {
        let fixture = try DownloadFixture()
        let content = DownloadFixture.bytes(100_000, seed: 10)
        let file = try fixture.add("f", content)
        let request = fixture.request("f", content: content)
        try FileManager.default.createDirectory(at: request.partialDirectory, withIntermediateDirectories: true)
        try Data(content[0..<5000]).write(to: request.partialURL)
        try Data("aibuds-partial 1\n\(request.url)\n\(file.etag)\n100000\n".utf8).write(to: URL(fileURLWithPath: request.partialURL.path + ".meta"))
        let result = try await HTTPFileDownloader().download(request)
        #expect(result.bytesResumed == 5000)
        #expect(result.bytesReceived == 95_000)
        #expect(try fixture.downloaded("f") == content)

        // A partial file whose validator names another URL starts over.
        let other = fixture.request("g", content: content)
        try fixture.add("g", content)
        try FileManager.default.createDirectory(at: other.partialDirectory, withIntermediateDirectories: true)
        try Data(repeating: 0xEE, count: 5000).write(to: other.partialURL)
        try Data("aibuds-partial 1\nhttp://127.0.0.1:1/media/x\n\(file.etag)\n100000\n".utf8).write(to: URL(fileURLWithPath: other.partialURL.path + ".meta"))
        let fresh = try await HTTPFileDownloader().download(other)
        #expect(fresh.bytesResumed == 0)
        #expect(try fixture.downloaded("g") == content)
        #expect(fixture.partialFiles().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: other.partialDirectory.path))
    }

    @Test func aStalledTransferTimesOutAndResumes() async throws {
        let (fixture, content) = try DownloadFixture.holding("f", bytes: 500_000, seed: 3)
        // The stall outlasts any slowness of a loaded machine: only the 200 ms I/O timeout ends it.
        fixture.server.setFaults(DataPlaneFaults(stall: .init(atByte: 200_000, duration: .seconds(90))))
        var configuration = quickRetries()
        configuration.ioTimeout = .milliseconds(200)
        let start = ContinuousClock.now
        let result = try await HTTPFileDownloader(configuration: configuration).download(fixture.request("f", content: content))
        #expect(try fixture.downloaded("f") == content)
        #expect(result.attempts == 2)
        #expect(result.bytesResumed == 0 && result.bytesReceived < 500_000 + 4096)
        #expect(ContinuousClock.now - start < .seconds(45))
    }

    @Test func aChangedFileIsFetchedAgainNotSpliced() async throws {
        let fixture = try DownloadFixture()
        let old = DownloadFixture.bytes(1_000_000, seed: 4)
        try fixture.add("f", old, generation: 1)
        fixture.server.setFaults(DataPlaneFaults(closeAtByte: 600_000))
        var configuration = quickRetries(0)
        configuration.retry.maxRetriesWithoutProgress = 0
        await #expect { try await HTTPFileDownloader(configuration: configuration).download(fixture.request("f")) } throws: {
            ($0 as? TransferError)?.code == .connectionLost
        }
        #expect(fixture.partialFiles() == ["f.part", "f.part.meta"])

        let new = DownloadFixture.bytes(1_000_000, seed: 5)
        try fixture.add("f", new, generation: 2)
        fixture.server.setFaults(.none)
        let result = try await HTTPFileDownloader().download(fixture.request("f", content: new))
        #expect(try fixture.downloaded("f") == new)
        #expect(result.bytesResumed > 600_000 - 4096 && result.bytesResumed <= 600_000)
        #expect(result.bytesReceived == 1_000_000)
        #expect(fixture.partialFiles().isEmpty)
    }

    @Test func cancellingTheTaskLeavesAResumablePartialFile() async throws {
        let (fixture, content) = try DownloadFixture.holding("f", bytes: 2_000_000, seed: 6)
        fixture.server.setFaults(DataPlaneFaults(stall: .init(atByte: 700_000, duration: .seconds(90))))
        let downloader = HTTPFileDownloader()
        let log = ProgressLog()
        let request = fixture.request("f", content: content)
        let task = Task { try await downloader.download(request) { log.record($0) } }
        try await log.wait(forBytes: 700_000)
        let cancelledAt = ContinuousClock.now
        task.cancel()
        await #expect { try await task.value } throws: { ($0 as? TransferError)?.code == .cancelled }
        // Well before the I/O timeout (30 s) or the stall (90 s) would have ended it.
        #expect(ContinuousClock.now - cancelledAt < .seconds(20))
        #expect(fixture.partialFiles() == ["f.part", "f.part.meta"])
        #expect(!FileManager.default.fileExists(atPath: fixture.destination.appendingPathComponent("f").path))

        fixture.server.setFaults(.none)
        let sentBefore = fixture.server.statistics.bodyBytesSent
        let result = try await HTTPFileDownloader().download(request)
        #expect(try fixture.downloaded("f") == content)
        #expect(result.bytesResumed > 700_000 - 4096 && result.bytesResumed <= 700_000)
        #expect(fixture.server.statistics.bodyBytesSent - sentBefore == 2_000_000 - result.bytesResumed)
        #expect(fixture.partialFiles().isEmpty)
    }

    @Test func cancelAllStopsEveryDownload() async throws {
        let fixture = try DownloadFixture()
        var requests: [DownloadRequest] = []
        for index in 0..<3 {
            try fixture.add("f\(index)", DownloadFixture.bytes(1_000_000, seed: UInt64(index)))
            requests.append(fixture.request("f\(index)"))
        }
        fixture.server.setFaults(DataPlaneFaults(firstByteDelay: .seconds(90)))
        let downloader = HTTPFileDownloader()
        let task = Task { await downloader.download(requests, parallelism: 3) }
        try await eventually("the server to receive the three requests") { fixture.server.statistics.requests >= 3 }
        let cancelledAt = ContinuousClock.now
        downloader.cancelAll()
        let results = await task.value
        // Well before the I/O timeout (30 s) or the delay (90 s) would have ended them.
        #expect(ContinuousClock.now - cancelledAt < .seconds(20))
        #expect(results.allSatisfy { if case .failure(let error) = $0 { error.code == .cancelled } else { false } })
    }

    @Test func httpErrorsAreTyped() async throws {
        let fixture = try DownloadFixture()
        try fixture.add("f", Array("data".utf8))
        let downloader = HTTPFileDownloader(configuration: quickRetries())
        var wrongToken = fixture.request("f")
        wrongToken.endpoint = try DataPlaneEndpoint(baseURL: fixture.baseURL, token: "wrong")
        await #expect { try await downloader.download(wrongToken) } throws: { ($0 as? TransferError)?.httpStatus == 401 }
        await #expect { try await downloader.download(fixture.request("missing")) } throws: { ($0 as? TransferError)?.httpStatus == 404 }
        #expect(!FileManager.default.fileExists(atPath: fixture.destination.appendingPathComponent("f").path))

        fixture.server.setFaults(DataPlaneFaults(failNextRequests: 1))
        let result = try await downloader.download(fixture.request("f"))
        #expect(result.attempts == 2)
        #expect(try fixture.downloaded("f") == Array("data".utf8))
    }

    @Test func sizeAndChecksumAreVerifiedBeforeCommitting() async throws {
        let (fixture, content) = try DownloadFixture.holding("f", bytes: 100_000, seed: 7)
        var wrongDigest = fixture.request("f", content: content)
        wrongDigest.expectedSHA256 = SHA256.hash(Array("other".utf8))
        await #expect { try await HTTPFileDownloader().download(wrongDigest) } throws: { ($0 as? TransferError)?.code == .checksumMismatch }
        var wrongSize = fixture.request("f", content: content)
        wrongSize.expectedSize = 99_999
        await #expect { try await HTTPFileDownloader().download(wrongSize) } throws: { ($0 as? TransferError)?.code == .sizeMismatch }
        #expect(fixture.partialFiles().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: fixture.destination.appendingPathComponent("f").path))
    }

    @Test func neverOverwritesUnlessAsked() async throws {
        let (fixture, content) = try DownloadFixture.holding("f", bytes: 10_000, seed: 8)
        let existing = fixture.destination.appendingPathComponent("f")
        try Data("mine".utf8).write(to: existing)
        await #expect { try await HTTPFileDownloader().download(fixture.request("f", content: content)) } throws: {
            ($0 as? TransferError)?.code == .fileExists
        }
        #expect(fixture.server.statistics.requests == 0)
        #expect(try Data(contentsOf: existing) == Data("mine".utf8))
        _ = try await HTTPFileDownloader().download(fixture.request("f", content: content, overwrite: true))
        #expect(try fixture.downloaded("f") == content)
    }

    @Test func aFileThatAppearsDuringTheDownloadIsNotReplaced() async throws {
        let fixture = try DownloadFixture()
        // Above the limit of files written unnamed, so it goes through `.partial/` (see
        // HTTPUnnamedFileTests for small files).
        let content = DownloadFixture.bytes(1_500_000, seed: 11)
        try fixture.add("f", content)
        let existing = fixture.destination.appendingPathComponent("f")
        let request = fixture.request("f", content: content)
        // The file appears once 100 kB have arrived: written from the progress callback, on the
        // download's thread, so always before the commit (a 300 ms stall for the test to notice the
        // progress and write the file was too short on a loaded machine).
        let written = Locked(false)
        let task = Task {
            try await HTTPFileDownloader().download(request) { progress in
                guard progress.bytesTransferred >= 100_000, written.withLock({ done in defer { done = true }; return !done }) else { return }
                try? Data("theirs".utf8).write(to: existing)
            }
        }
        await #expect { try await task.value } throws: { ($0 as? TransferError)?.code == .fileExists }
        #expect(written.withLock { $0 })
        #expect(try Data(contentsOf: existing) == Data("theirs".utf8))
        #expect(fixture.partialFiles() == ["f.part", "f.part.meta"])
    }

    @Test func manyFilesThroughANarrowCommitQueue() async throws {
        let fixture = try DownloadFixture()
        let (requests, contents) = try fixture.serve(30, prefix: "n", seed: 100) { 20_000 + $0 }
        let downloader = HTTPFileDownloader(configuration: .init(parallelism: 3, commitWidth: 1))
        let results = await downloader.download(requests)
        for result in results { _ = try result.get() }
        for index in 0..<30 { #expect(try fixture.downloaded("n\(index)") == contents[index]) }
        #expect(fixture.partialFiles().isEmpty)
    }

    @Test func localWriteFailuresAreTyped() async throws {
        let fixture = try DownloadFixture()
        try fixture.add("f", Array("data".utf8))
        // `.partial` is a regular file, so the partial file cannot be created.
        try Data().write(to: fixture.destination.appendingPathComponent(".partial"))
        await #expect { try await HTTPFileDownloader().download(fixture.request("f")) } throws: {
            ($0 as? TransferError)?.code == .localFileError && ($0 as? TransferError)?.underlying is FileSystemFailure
        }
        var missing = fixture.request("f")
        missing.destinationDirectory = fixture.root.appendingPathComponent("no-such-folder")
        await #expect { try await HTTPFileDownloader().download(missing) } throws: { ($0 as? TransferError)?.code == .localFileError }
    }

    @Test func aFullDiskIsALocalFileErrorAndKeepsTheResumableFile() async throws {
        let (fixture, content) = try DownloadFixture.holding("f", bytes: 3_000_000, seed: 9)
        let small = fixture.root.appendingPathComponent("small")
        try FileManager.default.createDirectory(at: small, withIntermediateDirectories: true)
        // A 1 MiB tmpfs, when this process may mount one (root); otherwise there is no full disk to test.
        guard await run("/bin/mount", ["-t", "tmpfs", "-o", "size=1m", "tmpfs", small.path]) == 0 else { return }
        var request = fixture.request("f", content: content)
        request.destinationDirectory = small
        await #expect { try await HTTPFileDownloader().download(request) } throws: {
            guard let error = $0 as? TransferError, error.code == .localFileError else { return false }
            return (error.underlying as? FileSystemFailure)?.errno == ENOSPC
        }
        _ = await run("/bin/umount", [small.path])
    }

    @Test func hostileDeviceNamesLandSafelyInsideTheDestination() async throws {
        let fixture = try DownloadFixture()
        let names = [
            "../escape.jpg", "/etc/cron.d/x", "a\u{0}b", "ctl\u{1B}[31m", ".", "..", ".partial", "Same.JPG", "same.jpg", "caf\u{E9}.mp4",
            "cafe\u{301}.mp4", String(repeating: "L", count: 4096) + ".mp4", "",
        ]
        for (index, name) in names.enumerated() { try fixture.add(name, Array("content-\(index)".utf8)) }
        let assigned = SafeFileName.assign(names)
        var requests: [DownloadRequest] = []
        var expected: [String: [UInt8]] = [:]
        for (index, name) in names.enumerated() {
            guard case .success(let localName) = assigned[index] else {
                #expect(name.isEmpty)
                continue
            }
            requests.append(fixture.request(name, localName: localName))
            expected[localName] = Array("content-\(index)".utf8)
        }
        let results = await HTTPFileDownloader().download(requests)
        for result in results { _ = try result.get() }
        let listing = try FileManager.default.contentsOfDirectory(atPath: fixture.destination.path).filter { $0 != ".partial" }
        #expect(Set(listing) == Set(expected.keys))
        for (localName, content) in expected { #expect(try fixture.downloaded(localName) == content) }
        let outside = try FileManager.default.contentsOfDirectory(atPath: fixture.root.path).sorted()
        #expect(outside == ["dest", "device"])
    }

    @Test func badRequestsFailClearly() async throws {
        let fixture = try DownloadFixture()
        let downloader = HTTPFileDownloader(configuration: quickRetries())
        var unsafe = fixture.request("f")
        unsafe.localName = "../f"
        await #expect { try await downloader.download(unsafe) } throws: { ($0 as? TransferError)?.code == .unsafeFileName }
        // The endpoint refuses what the engine cannot connect to, once, before any file.
        #expect { try DataPlaneEndpoint(baseURL: "https://127.0.0.1", token: fixture.token) } throws: { ($0 as? TransferError)?.code == .invalidURL }
        #expect { try DataPlaneEndpoint(baseURL: "http://localhost:1", token: fixture.token) } throws: { ($0 as? TransferError)?.code == .invalidURL }
        #expect { try DataPlaneEndpoint(baseURL: fixture.baseURL, token: "bad token") } throws: { ($0 as? TransferError)?.code == .invalidURL }
        // Or, kept for each request, fails each file as the engine takes it.
        let unusable = DownloadRequest(
            endpoint: .failingEachRequest(baseURL: "http://localhost:1", token: fixture.token), deviceFileName: "f",
            destinationDirectory: fixture.destination, localName: "f")
        await #expect { try await downloader.download(unusable) } throws: { ($0 as? TransferError)?.code == .invalidURL }
        fixture.server.stop()
        let refused = fixture.request("f")
        await #expect { try await downloader.download(refused) } throws: { ($0 as? TransferError)?.code == .connectionFailed }
    }

    @Test func aConnectionClosedWhileIdleIsReplaced() async throws {
        let first = try DownloadFixture()
        try first.add("a", Array("one".utf8))
        let downloader = HTTPFileDownloader()
        _ = try await downloader.download(first.request("a"))
        let port = try #require(URLComponents(string: first.baseURL)?.port)
        first.server.stop()
        // A new server on the same port: the pooled connection to the old one is dead.
        let second = DataPlaneServer(catalog: first.catalog, token: first.token, address: .init(host: "127.0.0.1", port: UInt16(port)))
        _ = try second.start()
        defer { second.stop() }
        try first.add("b", Array("two".utf8))
        let result = try await downloader.download(first.request("b"))
        #expect(result.attempts == 1)
        #expect(try first.downloaded("b") == Array("two".utf8))
    }

    /// Runs a tool to its end (on a thread of its own) and returns its exit status; -1 when it cannot start.
    private func run(_ tool: String, _ arguments: [String]) async -> Int32 {
        (try? await runProgram(URL(fileURLWithPath: tool), arguments))?.status ?? -1
    }
}
