import AIBudsEmulator
import Foundation
import Testing

/// The `aibuds scan`, `info` and `devices` commands, run as processes (no SDK state of this process).
@Suite struct CommandLineTests {
    @Test func scanFindsAnnouncedEmulatorsAsJSON() throws {
        let fixture = try EmulatorFixture("cli-scan")
        defer { fixture.remove() }
        let running = try fixture.start(.earbuds, name: "CLI Buds")
        defer { running.stop() }
        let (status, output, errors) = try runAIBuds(
            ["scan", "--timeout", "1", "--json"], environment: ["XDG_RUNTIME_DIR": fixture.directory.path])
        #expect(status == 0, "\(errors)")
        let list = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
        #expect(list.count == 1)
        #expect(list.first?["name"] as? String == "CLI Buds")
        #expect(list.first?["product"] as? String == "earbuds")
        #expect(list.first?["address"] as? String == running.url)
    }

    @Test func infoConnectsByAddressAndByName() throws {
        let fixture = try EmulatorFixture("cli-info")
        defer { fixture.remove() }
        let running = try fixture.start(.glasses, name: "CLI Glasses")
        defer { running.stop() }
        let environment = ["XDG_RUNTIME_DIR": fixture.directory.path, "XDG_DATA_HOME": fixture.directory.path]
        let (status, output, errors) = try runAIBuds(["info", "--device", running.url, "--json"], environment: environment)
        #expect(status == 0, "\(errors)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        #expect(report["name"] as? String == "CLI Glasses")
        #expect(report["photos"] as? Int == 2)
        #expect((report["capabilities"] as? [String])?.contains("camera") == true)
        let (byName, text, _) = try runAIBuds(["info", "--device", "cli glasses"], environment: environment)
        #expect(byName == 0)
        #expect(text.contains("AIBuds Glasses G1"))
    }

    @Test func exitCodesAndErrorsAreClear() throws {
        let fixture = try EmulatorFixture("cli-errors")
        defer { fixture.remove() }
        let environment = ["XDG_RUNTIME_DIR": fixture.directory.path, "XDG_DATA_HOME": fixture.directory.path]
        let (usage, _, usageError) = try runAIBuds(["scan", "--timeout", "soon"], environment: environment)
        #expect(usage == 64)
        #expect(usageError.split(separator: "\n").count == 1)
        #expect(try runAIBuds(["info"], environment: environment).0 == 64)
        #expect(try runAIBuds(["info", "--device", "tcp://x"], environment: environment).0 == 64)
        let (unavailable, _, message) = try runAIBuds(["info", "--device", "udp://127.0.0.1:9"], environment: environment)
        #expect(unavailable == 69)
        #expect(message.hasPrefix("aibuds: ") && message.split(separator: "\n").count == 1)
        #expect(try runAIBuds(["info", "--device", "Nobody Here"], environment: environment).0 == 69)
        let (listed, output, _) = try runAIBuds(["devices", "--json"], environment: environment)
        #expect(listed == 0)
        #expect((try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [Any])?.isEmpty == true)
    }

    @Test func devicesReportsACorruptStore() throws {
        let fixture = try EmulatorFixture("cli-corrupt")
        defer { fixture.remove() }
        let folder = fixture.directory.appendingPathComponent("aibuds")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("{not json".utf8).write(to: folder.appendingPathComponent("devices.json"))
        let (status, _, message) = try runAIBuds(["devices"], environment: ["XDG_DATA_HOME": fixture.directory.path])
        #expect(status == 1)
        #expect(message.contains("corrupt") && message.contains("moved to"))
    }

    @Test func helpDescribesTheDeviceCommands() throws {
        let (status, output, _) = try runAIBuds(["--help"])
        #expect(status == 0)
        for command in ["scan", "info", "devices"] { #expect(output.contains("  \(command) ")) }
        let (scanStatus, scanHelp, _) = try runAIBuds(["scan", "--help"])
        #expect(scanStatus == 0 && scanHelp.hasPrefix("usage: aibuds scan [--timeout SECONDS] [--json]"))
        #expect(try runAIBuds(["info", "--help"]).1.contains("--device"))
    }
}
