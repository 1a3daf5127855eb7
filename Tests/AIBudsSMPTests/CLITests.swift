import AIBudsEmulator
import AIBudsTestKit
import Foundation
import Testing

/// The `aibuds scan`, `info` and `devices` commands, run as processes (no SDK state of this process).
@Suite(.timeLimit(.minutes(2))) struct CommandLineTests {
    @Test func scanFindsAnnouncedEmulatorsAsJSON() async throws {
        let fixture = try EmulatorFixture("cli-scan")
        defer { fixture.remove() }
        let running = try fixture.start(.earbuds, name: "CLI Buds")
        defer { running.stop() }
        let (status, output, errors) = try await runAIBuds(
            ["scan", "--timeout", "1", "--json"], environment: ["XDG_RUNTIME_DIR": fixture.directory.path])
        #expect(status == 0, "\(errors)")
        let list = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
        #expect(list.count == 1)
        #expect(list.first?["name"] as? String == "CLI Buds")
        #expect(list.first?["product"] as? String == "earbuds")
        #expect(list.first?["address"] as? String == running.url)
    }

    @Test func infoConnectsByAddressAndByName() async throws {
        let fixture = try EmulatorFixture("cli-info")
        defer { fixture.remove() }
        let running = try fixture.start(.glasses, name: "CLI Glasses")
        defer { running.stop() }
        let environment = ["XDG_RUNTIME_DIR": fixture.directory.path, "XDG_DATA_HOME": fixture.directory.path]
        let (status, output, errors) = try await runAIBuds(["info", "--device", running.url, "--json"], environment: environment)
        #expect(status == 0, "\(errors)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        #expect(report["name"] as? String == "CLI Glasses")
        #expect(report["photos"] as? Int == 2)
        #expect((report["capabilities"] as? [String])?.contains("camera") == true)
        let (byName, text, _) = try await runAIBuds(["info", "--device", "cli glasses"], environment: environment)
        #expect(byName == 0)
        #expect(text.contains("AIBuds Glasses G1"))
    }

    @Test func exitCodesAndErrorsAreClear() async throws {
        let fixture = try EmulatorFixture("cli-errors")
        defer { fixture.remove() }
        let environment = ["XDG_RUNTIME_DIR": fixture.directory.path, "XDG_DATA_HOME": fixture.directory.path]
        let (usage, _, usageError) = try await runAIBuds(["scan", "--timeout", "soon"], environment: environment)
        #expect(usage == 64)
        #expect(usageError.split(separator: "\n").count == 1)
        #expect(try await runAIBuds(["info"], environment: environment).0 == 64)
        #expect(try await runAIBuds(["info", "--device", "tcp://x"], environment: environment).0 == 64)
        let (unavailable, _, message) = try await runAIBuds(["info", "--device", "udp://127.0.0.1:9"], environment: environment)
        #expect(unavailable == 69)
        #expect(message.hasPrefix("aibuds: ") && message.split(separator: "\n").count == 1)
        #expect(try await runAIBuds(["info", "--device", "Nobody Here"], environment: environment).0 == 69)
        let (listed, output, _) = try await runAIBuds(["devices", "--json"], environment: environment)
        #expect(listed == 0)
        #expect((try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [Any])?.isEmpty == true)
    }

    @Test func devicesReportsACorruptStore() async throws {
        let fixture = try EmulatorFixture("cli-corrupt")
        defer { fixture.remove() }
        let folder = fixture.directory.appendingPathComponent("aibuds")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("{not json".utf8).write(to: folder.appendingPathComponent("devices.json"))
        let (status, _, message) = try await runAIBuds(["devices"], environment: ["XDG_DATA_HOME": fixture.directory.path])
        #expect(status == 1)
        #expect(message.contains("corrupt") && message.contains("moved to"))
    }

    @Test func helpDescribesTheDeviceCommands() async throws {
        let (status, output, _) = try await runAIBuds(["--help"])
        #expect(status == 0)
        for command in ["scan", "info", "devices"] { #expect(output.contains("  \(command) ")) }
        let (scanStatus, scanHelp, _) = try await runAIBuds(["scan", "--help"])
        #expect(scanStatus == 0 && scanHelp.hasPrefix("usage: aibuds scan [--timeout SECONDS] [--json]"))
        #expect(try await runAIBuds(["info", "--help"]).1.contains("--device"))
    }
}
