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
        let process = Process()
        process.executableURL = try aibudsExecutable()
        // The second --device never answers: the station goes on with the others.
        process.arguments = ["station", "--to", folder.path, "--interval", "0.2", "--json", "--device", "udp://127.0.0.1:9"]
            + devices.flatMap { ["--device", $0.address] }
        process.environment = ProcessInfo.processInfo.environment.merging(environment(devices[0])) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        try await eventually("both devices imported into \(folder.path)", timeout: .seconds(60)) {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            return entries.count == 2 && entries.allSatisfy { id in
                FileManager.default.fileExists(atPath: folder.path + "/\(id)/IMG_1.jpg")
                    && FileManager.default.fileExists(atPath: folder.path + "/\(id)/AUD_1.m4a")
            }
        }
        kill(process.processIdentifier, SIGINT)
        let text = try await onOwnThread {
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return String(decoding: data, as: UTF8.self)
        }
        #expect(process.terminationStatus == 0, "\(text)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let reports = try #require(document["devices"] as? [[String: Any]])
        // Imported once per appearance: two reports, not one per round.
        #expect(reports.count == 2)
        #expect(reports.allSatisfy { $0["success"] as? Bool == true })
    }
}
