import AIBudsDigest
import AIBudsEmulator
import AIBudsTestKit
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif


/// `aibuds media import` run as a process against emulated glasses, interrupted the hard way:
/// `kill -9` mid-file, two imports into one folder, a full disk (docs/reliability.md §5, §8).
@Suite("Import: durable progress, one import per folder, no debris", .timeLimit(.minutes(3)))
struct ImportDurabilityTests {
    private func environment(_ fixture: ImportEmulatorFixture) -> [String: String] {
        ["XDG_RUNTIME_DIR": fixture.folder.path, "XDG_DATA_HOME": fixture.folder.path]
    }

    private func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// Waits for `condition`; when it does not come, ends `process` and fails with what it printed.
    private func wait(for process: RunningProgram, _ what: String, _ condition: @Sendable () -> Bool) async throws {
        do {
            try await eventually(what) { condition() }
        } catch {
            kill(process.pid, SIGKILL)
            let result = try await onOwnThread { process.finish() }
            Issue.record("\(what) did not happen; the import printed: \(result.out) \(result.err)")
            throw error
        }
    }

    private func importArguments(_ fixture: ImportEmulatorFixture, _ folder: URL, _ extra: [String] = []) -> [String] {
        ["media", "import", "--device", fixture.address, "--to", folder.path, "--all", "--json"] + extra
    }

    @Test func killedAtRandomPointsEachRunResumesAndTheLastFetchesOnlyTheRest() async throws {
        let seed = ProcessInfo.processInfo.environment["AIBUDS_CRASH_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 1...(1 << 48))
        print("ImportDurabilityTests: kill -9 points from seed \(seed) (AIBUDS_CRASH_SEED=\(seed) repeats them)")
        var random = SeededRandom(seed: seed)
        let size: Int64 = 32 << 20
        let name = "VID_crash.mp4"
        let fixture = try ImportEmulatorFixture([.video(name, UInt64(size), sixaxis: false)])
        defer { fixture.stop() }
        let folder = fixture.destination("crash")
        let dataPlane = fixture.emulator.dataPlane
        let meta = folder.appendingPathComponent(".partial/\(name).part.meta").path
        // The media list carries the digest, so no run waits on the device hashing 32 MiB on
        // demand (a File hash request can time out on a loaded machine).
        try await waitUntilDigestsListed(fixture.emulator.device.store, timeout: .seconds(60))
        var kept: Int64 = 0
        for round in 0..<3 {
            // Each run's data plane stalls at a random byte past what is kept, so the run is
            // mid-file, waiting for the rest, when it is killed.
            let stallAt = Int64.random(in: (kept + (1 << 20))...(size * Int64(round + 1) / 4), using: &random)
            // (A killed import leaves the device in transfer mode: the next run finds the same
            // session's data plane, or a new one.)
            let faults = DataPlaneFaults(stall: .init(atByte: stallAt, duration: .seconds(120)))
            dataPlane.setFaults(faults)
            let previous = dataPlane.currentServer
            previous?.setFaults(faults)
            let sentBefore = previous?.statistics.bodyBytesSent ?? 0
            let resumeAt = kept
            // Body bytes the data plane sent in this round.
            let servedThisRound: @Sendable () -> Int64 = {
                guard let server = dataPlane.currentServer else { return 0 }
                return server.statistics.bodyBytesSent - (server === previous ? sentBefore : 0)
            }
            let process = try RunningProgram(try aibudsExecutable(), importArguments(fixture, folder), environment: environment(fixture))
            // The data plane has sent every byte up to the stall (from where the run resumed), and
            // the import has written all but its last buffer (under 1 MiB) of them.
            try await wait(for: process, "round \(round): the stall at \(stallAt)") {
                servedThisRound() >= stallAt - resumeAt && Int64((try? partialSize(folder, name)) ?? 0) >= stallAt - (1 << 20)
            }
            let served = servedThisRound()
            kill(process.pid, SIGKILL)
            let ended = try await onOwnThread { process.finish() }
            #expect(!ended.exited && ended.status == SIGKILL)
            // The run asked for the bytes after the kept ones only: it resumed, it did not start over.
            #expect(served == stallAt - kept, "round \(round): served \(served), stall at \(stallAt), kept \(kept), seed \(seed)")
            #expect(FileManager.default.fileExists(atPath: meta), "round \(round): no resume record after kill -9 (seed \(seed))")
            let now = Int64(try partialSize(folder, name))
            #expect(now >= stallAt - (1 << 20) && now <= stallAt, "round \(round): \(now) bytes kept, stall at \(stallAt), seed \(seed)")
            print("ImportDurabilityTests: round \(round): stalled at \(stallAt), \(served) bytes served, \(now) kept after kill -9 (seed \(seed))")
            kept = now
        }

        dataPlane.setFaults(.none)
        dataPlane.currentServer?.setFaults(.none)
        let (status, report, errors) = try await runAIBuds(importArguments(fixture, folder), environment: environment(fixture))
        #expect(status == 0, "\(errors)")
        let document = try json(report)
        #expect(document["bytesFetched"] as? Int == Int(size - kept), "kept \(kept) of \(size), seed \(seed)")
        print("ImportDurabilityTests: the last run fetched \(document["bytesFetched"] as? Int ?? -1) of \(size) bytes (seed \(seed))")
        #expect(try SHA256.hash(fileAt: folder.appendingPathComponent(name)) == fixture.sha256(of: name))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(".partial").path))
    }

    @Test func aSecondImportIntoTheSameFolderWaitsAndBothSucceed() async throws {
        let fixture = try ImportEmulatorFixture(
            [.video("A.mp4", 6_000_000, sixaxis: false), .photo("B.jpg", 200_000)], faults: ["http-stall=3000000:10000"])
        defer { fixture.stop() }
        let folder = fixture.destination("shared")
        try await waitUntilDigestsListed(fixture.emulator.device.store, timeout: .seconds(60))
        let first = try RunningProgram(try aibudsExecutable(), importArguments(fixture, folder), environment: environment(fixture))
        // The first is mid-file (stalled) when the second starts.
        try await wait(for: first, "the first import's partial file") { (try? partialSize(folder, "A.mp4")) ?? 0 > 0 }
        let second = try RunningProgram(try aibudsExecutable(), importArguments(fixture, folder), environment: environment(fixture))
        let secondResult = try await onOwnThread { second.finish() }
        let firstResult = try await onOwnThread { first.finish() }
        #expect(firstResult.status == 0, "\(firstResult.err)")
        #expect(secondResult.status == 0, "\(secondResult.err)")
        #expect(secondResult.err.contains("another import into"), "\(secondResult.err)")
        // The second found everything the first imported: nothing fetched again.
        let second2 = try json(secondResult.out)
        #expect(second2["success"] as? Bool == true && second2["bytesFetched"] as? Int == 0)
        #expect(try SHA256.hash(fileAt: folder.appendingPathComponent("A.mp4")) == fixture.sha256(of: "A.mp4"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [".aibuds", "A.mp4", "B.jpg"])
    }

    @Test func aSuccessfulRunRemovesThePartialStateOfFilesItImported() async throws {
        let fixture = try ImportEmulatorFixture([.video("A.mp4", 3_000_000, sixaxis: false), .photo("B.jpg", 100_000)])
        defer { fixture.stop() }
        let folder = fixture.destination("debris")
        try await waitUntilDigestsListed(fixture.emulator.device.store, timeout: .seconds(60))
        let (first, _, firstErrors) = try await runAIBuds(importArguments(fixture, folder), environment: environment(fixture))
        #expect(first == 0, "\(firstErrors)")
        // State an interrupted or concurrent run left for files that are now imported.
        let partial = folder.appendingPathComponent(".partial")
        try FileManager.default.createDirectory(at: partial, withIntermediateDirectories: true)
        try Data(repeating: 0xAB, count: 1_000_000).write(to: partial.appendingPathComponent("A.mp4.part"))
        try Data("aibuds-partial 1\nhttp://127.0.0.1:1/media/A.mp4\n\"x\"\n3000000\n".utf8)
            .write(to: partial.appendingPathComponent("A.mp4.part.meta"))
        try Data("aibuds-partial 1\nhttp://127.0.0.1:1/media/B.jpg\n\"y\"\n100000\n".utf8)
            .write(to: partial.appendingPathComponent("B.jpg.part.meta"))
        let (second, report, errors) = try await runAIBuds(importArguments(fixture, folder), environment: environment(fixture))
        #expect(second == 0, "\(errors)")
        #expect(try json(report)["bytesFetched"] as? Int == 0)
        #expect(!FileManager.default.fileExists(atPath: partial.path), "\((try? FileManager.default.contentsOfDirectory(atPath: partial.path)) ?? [])")
    }

    @Test func aFullDiskKeepsEachPartialFileResumableAndReportsTheLedgerFailure() async throws {
        let fixture = try ImportEmulatorFixture([
            .video("A.mp4", 3 << 20, sixaxis: false), .video("B.mp4", 3 << 20, sixaxis: false), .video("C.mp4", 4 << 20, sixaxis: false),
        ])
        defer { fixture.stop() }
        let folder = fixture.destination("small")
        try await waitUntilDigestsListed(fixture.emulator.device.store, timeout: .seconds(60))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // An 8 MiB tmpfs in a mount namespace of the import's own: it goes away with the process,
        // so the script lists what the import left before it ends.
        let script = """
            dest="$1"; shift
            mount -t tmpfs -o size=8m tmpfs "$dest" || exit 90
            "$@"
            echo "exit=$?" >&2
            cd "$dest" && find . -type f -printf 'file %p\\n' >&2
            """
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else {
            print("aFullDiskKeepsEachPartialFileResumableAndReportsTheLedgerFailure: skipped, no unshare(1) to mount a small tmpfs")
            return
        }
        let result = try await runProgram(
            URL(fileURLWithPath: "/usr/bin/unshare"),
            ["-rm", "/bin/sh", "-c", script, "sh", folder.path, try aibudsExecutable().path] + importArguments(fixture, folder, ["--jobs", "1"]),
            environment: environment(fixture))
        guard result.status != 90, result.err.contains("exit=") else {
            print("aFullDiskKeepsEachPartialFileResumableAndReportsTheLedgerFailure: skipped, this system does not let the test mount a tmpfs (\(result.err))")
            return
        }
        let files = Set(result.err.split(separator: "\n").filter { $0.hasPrefix("file ./") }.map { String($0.dropFirst(7)) })
        #expect(result.err.contains("exit=1"), "\(result.err)")
        #expect(files.contains("A.mp4") && files.contains("B.mp4"), "\(files)")
        // C did not fit: either nothing of it is left, or its partial file with its resume record.
        #expect(!files.contains("C.mp4"))
        #expect(!files.contains(".partial/C.mp4.part") || files.contains(".partial/C.mp4.part.meta"), "\(files)")
        // The ledger could not record A and B: said on stderr, never silent.
        #expect(result.err.contains("will not know these files from the ledger"), "\(result.err)")
    }
}
