import AIBudsAudio
import AIBudsDigest
import AIBudsTestKit
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `aibuds media list|import|delete` and `aibuds demo`, run as processes against emulated glasses.
@Suite("Import: the media commands", .timeLimit(.minutes(2)))
struct ImportCLITests {
    private func environment(_ fixture: ImportEmulatorFixture) -> [String: String] {
        ["XDG_RUNTIME_DIR": fixture.folder.path, "XDG_DATA_HOME": fixture.folder.path]
    }

    private func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func aReportThatCannotBeWrittenFailsTheCommand() async throws {
        let fixture = try ImportEmulatorFixture([.photo("A.jpg", 3_000)])
        defer { fixture.stop() }
        let folder = fixture.destination("full")
        // Standard output on a full device: the files are imported, but the report is lost.
        let result = try await runProgram(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", "exec \"$0\" \"$@\" > /dev/full", try aibudsExecutable().path, "media", "import", "--device", fixture.address,
             "--to", folder.path, "--all", "--json"],
            environment: environment(fixture))
        #expect(result.status != 0, "\(result.err)")
        #expect(!result.err.isEmpty)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("A.jpg").path))
    }

    @Test func listImportNewAndDeleteAfter() async throws {
        let fixture = try ImportEmulatorFixture([.photo("A.jpg", 30_000), .video("B.mp4", 700_000), .audio("C.m4a", 5_000)])
        defer { fixture.stop() }
        let env = environment(fixture)

        let (listed, listing, listErrors) = try await runAIBuds(["media", "list", "--device", fixture.address, "--json"], environment: env)
        #expect(listed == 0, "\(listErrors)")
        let files = try #require(try json(listing)["files"] as? [[String: Any]])
        #expect(files.map { $0["name"] as? String } == ["A.jpg", "B.mp4", "C.m4a"])
        #expect(files[1]["sixaxis"] as? Bool == true && files[1]["size"] as? Int == 700_000)
        let (typed, videos, _) = try await runAIBuds(["media", "list", "--device", fixture.address, "--type", "video"], environment: env)
        #expect(typed == 0 && videos.contains("B.mp4") && !videos.contains("A.jpg"))

        let folder = fixture.destination("cli")
        let (imported, report, errors) = try await runAIBuds(
            ["media", "import", "--device", fixture.address, "--to", folder.path, "A.jpg", "B.mp4", "--json"], environment: env)
        #expect(imported == 0, "\(errors)")
        let document = try json(report)
        #expect(document["success"] as? Bool == true)
        #expect(document["bytesFetched"] as? Int == 730_000)
        let entries = try #require(document["files"] as? [[String: Any]])
        #expect(entries.map { $0["status"] as? String } == ["imported", "imported"])
        #expect(entries.map { $0["bytesFetched"] as? Int } == [30_000, 700_000])
        #expect(try SHA256.hash(fileAt: folder.appendingPathComponent("B.mp4")).hexString == entries[1]["sha256"] as? String)

        // --new skips what the ledger has; --delete-after removes only what was imported and verified.
        let (again, second, _) = try await runAIBuds(
            ["media", "import", "--device", fixture.address, "--to", folder.path, "--all", "--new", "--delete-after", "--json"],
            environment: env)
        #expect(again == 0)
        let secondFiles = try #require(try json(second)["files"] as? [[String: Any]])
        #expect(Dictionary(uniqueKeysWithValues: secondFiles.map { ($0["name"] as? String ?? "", $0["status"] as? String ?? "") })
            == ["A.jpg": "skipped", "B.mp4": "skipped", "C.m4a": "imported"])
        let (_, remaining, _) = try await runAIBuds(["media", "list", "--device", fixture.address, "--json"], environment: env)
        #expect((try json(remaining)["files"] as? [[String: Any]])?.map { $0["name"] as? String } == ["A.jpg", "B.mp4"])

        let (deleted, _, _) = try await runAIBuds(["media", "delete", "--device", fixture.address, "A.jpg"], environment: env)
        #expect(deleted == 0)
        let (missing, _, message) = try await runAIBuds(["media", "delete", "--device", fixture.address, "A.jpg"], environment: env)
        #expect(missing == 1 && message.contains("A.jpg") && message.contains("device status 2"))
        let (all, allText, _) = try await runAIBuds(["media", "delete", "--device", fixture.address, "--all"], environment: env)
        #expect(all == 0 && allText.contains("Deleted 1 files"))
    }

    @Test func usageErrorsExit64() async throws {
        for arguments in [
            ["media", "import", "--to", "/tmp/x", "--all"],
            ["media", "import", "--device", "udp://127.0.0.1:9", "--all"],
            ["media", "import", "--device", "udp://127.0.0.1:9", "--to", "/tmp/x"],
            ["media", "import", "--device", "udp://127.0.0.1:9", "--to", "/tmp/x", "--all", "A.jpg"],
            ["media", "import", "--device", "udp://127.0.0.1:9", "--to", "/tmp/x", "--all", "--jobs", "0"],
            ["media", "list", "--device", "udp://127.0.0.1:9", "--type", "gif"],
            ["media", "delete", "--device", "udp://127.0.0.1:9"],
            ["demo", "--videos", "0"],
        ] {
            let (status, _, errors) = try await runAIBuds(arguments)
            #expect(status == 64, "\(arguments): \(errors)")
            #expect(errors.hasPrefix("aibuds: ") && errors.split(separator: "\n").count == 1)
        }
        let (help, text, _) = try await runAIBuds(["media", "import", "--help"])
        #expect(help == 0 && text.contains("--delete-after") && text.contains("--jobs N"))
        let (unreachable, _, unreachableErrors) = try await runAIBuds(["media", "list", "--device", "udp://127.0.0.1:9"])
        #expect(unreachable == 69)
        // The UDP plugin's reason, not the BLE plugin's "reaches ble:// addresses only".
        #expect(!unreachableErrors.contains("ble://"), "\(unreachableErrors)")
    }

    @Test func ctrlCCancelsCleanlyAndTheNextRunResumes() async throws {
        let size = 40_000_000
        let fixture = try ImportEmulatorFixture([.video("VID_long.mp4", UInt64(size), sixaxis: false)], faults: ["http-stall=8388608:30000"])
        defer { fixture.stop() }
        // Listed with its digest: the import does not wait on the device hashing 40 MB on demand,
        // which can outlast the File hash request on a loaded machine.
        try await waitUntilDigestsListed(fixture.emulator.device.store, timeout: .seconds(60))
        let folder = fixture.destination("cli")
        // The device lists the file's SHA-256 once it has hashed it in the background; before that,
        // the import asks for it, and hashing 40 MB in a loaded debug build can outlast the
        // request's 12 s (the import then fails before a byte is fetched).
        try await waitUntilDigestsListed(fixture.emulator.device.store)
        let process = try RunningProgram(
            try aibudsExecutable(), ["media", "import", "--device", fixture.address, "--to", folder.path, "--all"],
            environment: environment(fixture))
        do {
            try await eventually("a partial VID_long.mp4") { (try? partialSize(folder, "VID_long.mp4")) ?? 0 > 0 }
        } catch {
            process.terminate()
            let result = try await onOwnThread { process.finish() }
            Issue.record("no partial file; the import said: \(result.out)\(result.err)")
            throw error
        }
        try await Task.sleep(for: .milliseconds(300))
        process.interrupt()
        let result = try await onOwnThread { process.finish() }
        let text = result.out + result.err
        #expect(result.status == 130, "\(text)")
        #expect(text.contains("Cancelled: run the same command again to resume."))
        let kept = try partialSize(folder, "VID_long.mp4")
        #expect(kept > 0)

        let (status, report, errors) = try await runAIBuds(
            ["media", "import", "--device", fixture.address, "--to", folder.path, "--all", "--json"], environment: environment(fixture))
        #expect(status == 0, "\(errors)")
        let files = try #require(try json(report)["files"] as? [[String: Any]])
        #expect(files.first?["bytesFetched"] as? Int == size - Int(kept))
        #expect(try SHA256.hash(fileAt: folder.appendingPathComponent("VID_long.mp4")) == fixture.sha256(of: "VID_long.mp4"))
    }

    /// `--dashboard` serves the session's record until Ctrl-C, which must reach it although the
    /// import's own Ctrl-C handler came and went before (libdispatch's handler for SIGINT was
    /// replaced then, and SIGINT did nothing).
    @Test func theDemosDashboardServesTheSessionAndStopsOnCtrlC() async throws {
        let folder = try makeTemporaryDirectory("demo-dashboard")
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = try RunningProgram(
            try aibudsExecutable(), ["demo", "--videos", "1", "--to", folder.appendingPathComponent("out").path, "--dashboard"],
            environment: ["XDG_RUNTIME_DIR": folder.path, "XDG_DATA_HOME": folder.path])
        defer { process.kill() }
        var url: String?
        while url == nil, let line = try await onOwnThread({ process.readLine() }) {
            if line.hasPrefix("AI dashboard: ") { url = line.split(separator: " ").dropFirst(2).first.map(String.init) }
        }
        let page = try #require(url, "the demo printed no dashboard address")
        let token = try #require(page.split(separator: "token=").last.map(String.init))
        let base = String(page.prefix { $0 != "?" })
        let records = try await runProgram(URL(fileURLWithPath: "/usr/bin/curl"), ["-sf", "\(base)api/records?token=\(token)"])
        #expect(records.status == 0 && records.out.contains("\"kind\":\"interpretation\""), "\(records.out)")
        process.interrupt()
        let ended = try await onOwnThread { process.finish() }
        #expect(ended.exited && ended.status == 0, "SIGINT stops the dashboard and the demo exits 0")
    }

    @Test func theDemoRunsEndToEnd() async throws {
        let folder = try makeTemporaryDirectory("import-demo")
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        let (status, output, errors) = try await runAIBuds(
            ["demo", "--videos", "2", "--to", out.path],
            environment: ["XDG_RUNTIME_DIR": folder.path, "XDG_DATA_HOME": folder.path])
        #expect(status == 0, "\(output)\(errors)")
        // 2 videos with their six-axis logs, 4 photos, 2 voice notes; both videos stabilized.
        #expect(output.contains("imported     8 of 8 files"), "\(output)")
        #expect(output.contains("verified     8 of 8 files match the device's SHA-256"))
        #expect(output.contains("stabilized   2 of 2 videos"))
        #expect(output.contains("recordings   2 on the watch through TopStep's TSMediaFile"))
        #expect(FileManager.default.fileExists(atPath: out.appendingPathComponent("watch/REC_20261202_091500.wav").path))
        // No foreign library writes to the terminal (FFmpeg's "[mov,mp4,... @ 0x...]" lines).
        #expect(!(output + errors).contains(" @ 0x"), "\(errors)")
        // The AI turn heard the question and the glasses' speaker played an answer.
        #expect(output.contains("AI heard     \""), "\(output)")
        // The voice assistant heard "hey glasses, take a photo" and the glasses took one.
        #expect(output.contains("voice        \"Hey glasses, take a photo.\" → photo IMG_"), "\(output)")
        let speaker = try WAVFile.read(from: out.appendingPathComponent("glasses-speaker.wav"))
        #expect(speaker.duration > 0.5)
        // Each stabilized copy, its side-by-side clip and its contact sheet beside the original.
        let imported = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("imported").path)
        for index in 1...2 {
            let stem = String(format: "VID_20261202_1015%02d", index)
            for suffix in [".mp4", ".stabilized.mp4", ".side-by-side.mp4", ".trails.jpg"] {
                #expect(imported.contains(stem + suffix), "\(stem + suffix) in \(imported)")
            }
        }
        let photo = try Data(contentsOf: out.appendingPathComponent("imported/IMG_20261202_101201.jpg"))
        #expect(photo.starts(with: [0xFF, 0xD8, 0xFF]), "a photo is a JPEG")
    }
}
