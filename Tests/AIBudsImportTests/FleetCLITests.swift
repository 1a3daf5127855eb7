import AIBudsDigest
import AIBudsTestKit
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `aibuds media import` with several `--device` options and `aibuds station`, run as processes
/// against real emulated glasses.
@Suite("Fleet import: the commands", .timeLimit(.minutes(3)))
struct FleetCLITests {
    private func fixtures(_ count: Int, test: String = #function) throws -> [ImportEmulatorFixture] {
        try (1...count).map { index in
            try ImportEmulatorFixture(
                [.photo("IMG_1.jpg", 150_000 + UInt64(index)), .audio("AUD_1.m4a", 40_000)], configure: { $0.name = "Fleet \(index)" },
                test: "\(test)-\(index)")
        }
    }

    private func environment(_ fixture: ImportEmulatorFixture) -> [String: String] {
        ["XDG_RUNTIME_DIR": fixture.folder.path, "XDG_DATA_HOME": fixture.folder.path]
    }

    @Test func importFromSeveralDevicesAtOnce() async throws {
        let devices = try fixtures(3)
        defer { devices.forEach { $0.stop() } }
        let folder = devices[0].destination("station")
        var arguments = ["media", "import", "--to", folder.path, "--all", "--json"]
        for device in devices { arguments += ["--device", device.address] }
        let (status, out, err) = try await runAIBuds(arguments, environment: environment(devices[0]))
        #expect(status == 0, "\(err)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        #expect(document["success"] as? Bool == true)
        let reports = try #require(document["devices"] as? [[String: Any]])
        #expect(reports.count == 3)
        #expect(Set(reports.compactMap { $0["destination"] as? String }).count == 3)
        for report in reports {
            let destination = try #require(report["destination"] as? String)
            #expect(URL(fileURLWithPath: destination).deletingLastPathComponent().standardizedFileURL == folder.standardizedFileURL)
            let files = try #require(report["files"] as? [[String: Any]])
            #expect(files.map { $0["status"] as? String } == ["imported", "imported"])
            let id = try #require(report["device"] as? String)
            #expect(FileManager.default.fileExists(atPath: "\(destination)/.aibuds/ledger-\(id).jsonl"))
        }
        // Each device's bytes in its own folder (the photos differ by one byte in size per device).
        for device in devices {
            let size = try #require(device.emulator.device.store.object(named: .init("IMG_1.jpg"))?.size)
            let matches = try reports.filter { report in
                let files = try #require(report["files"] as? [[String: Any]])
                return files.contains { $0["name"] as? String == "IMG_1.jpg" && ($0["size"] as? Int).map(UInt64.init) == size }
            }
            let destination = try #require(matches.first?["destination"] as? String)
            #expect(try SHA256.hash(fileAt: URL(fileURLWithPath: destination + "/IMG_1.jpg")) == device.sha256(of: "IMG_1.jpg"))
        }
        // A second run with --new imports nothing; file names with several devices are a usage error.
        let (again, second, _) = try await runAIBuds(arguments + ["--new"], environment: environment(devices[0]))
        #expect(again == 0)
        #expect(second.contains("\"skipped\"") && !second.contains("\"imported\""))
        let (usage, _, message) = try await runAIBuds(
            ["media", "import", "--device", devices[0].address, "--device", devices[1].address, "--to", folder.path, "IMG_1.jpg"],
            environment: environment(devices[0]))
        #expect(usage == 64 && message.contains("--all"))
    }

    @Test func stationImportsEveryDeviceThatAppearsUntilCtrlC() async throws {
        let devices = try fixtures(2)
        defer { devices.forEach { $0.stop() } }
        let folder = devices[0].destination("station")
        // The second --device never answers: the station goes on with the others.
        let program = try RunningProgram(
            try aibudsExecutable(),
            ["station", "--to", folder.path, "--interval", "0.2", "--device", "udp://127.0.0.1:9"] + devices.flatMap { ["--device", $0.address] },
            environment: environment(devices[0]))
        defer { program.terminate() }
        // Ctrl-C once both devices report their import done.
        var output = ""
        var done = 0
        while done < 2, let line = try await onOwnThread({ program.readLine() }) {
            output += line
            if line.contains("imported 2 of 2 files into \(folder.path)/") { done += 1 }
        }
        program.interrupt()
        let result = try await onOwnThread { [output] in program.finish(alreadyRead: output) }
        #expect(result.status == 0, "\(result.out) \(result.err)")
        // Imported once per appearance: one import per device, however many rounds passed.
        #expect(result.out.components(separatedBy: "imported 2 of 2 files").count - 1 == 2, "\(result.out)")
        #expect(result.out.contains("Imported 4 files from 2 devices"), "\(result.out)")
        let entries = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(entries.count == 2)
        for id in entries {
            #expect(FileManager.default.fileExists(atPath: folder.path + "/\(id)/IMG_1.jpg"))
            #expect(FileManager.default.fileExists(atPath: folder.path + "/\(id)/AUD_1.m4a"))
        }
    }
}
