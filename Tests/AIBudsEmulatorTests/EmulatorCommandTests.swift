@testable import AIBudsEmulator
import AIBudsNet
import AIBudsWire
import Foundation
import Testing

/// The built `aibuds` executable beside the test bundle, when it has been built.
enum AibudsBinary {
    static let url: URL? = {
        let folder = Bundle.main.executableURL?.deletingLastPathComponent()
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidate = folder.appendingPathComponent("aibuds")
        return FileManager.default.isExecutableFile(atPath: candidate.path) ? candidate : nil
    }()
}

@Suite(.enabled(if: AibudsBinary.url != nil, "the aibuds executable is not built (run swift build first)"),
       .timeLimit(.minutes(1)))
struct EmulatorCommandTests {
    @Test func aBadOptionIsAUsageError() throws {
        let result = try Smpmgr.run(try #require(AibudsBinary.url), ["emulator", "--profile", "toaster"], timeout: .seconds(20))
        #expect(result.status == 64)
        #expect(result.output.contains("--profile must be glasses, earbuds or watch"))
        let unknown = try Smpmgr.run(try #require(AibudsBinary.url), ["emulator", "--colour", "red"], timeout: .seconds(20))
        #expect(unknown.status == 64)
        let help = try Smpmgr.run(try #require(AibudsBinary.url), ["emulator", "--help"], timeout: .seconds(20))
        #expect(help.status == 0 && help.output.hasPrefix("usage: aibuds emulator"))
    }

    @Test func theProcessPrintsOneLineServesAnnouncesAndExitsZeroOnSIGTERM() async throws {
        let folder = try TemporaryFolder("cli")
        defer { folder.remove() }
        let binary = try #require(AibudsBinary.url)
        let process = Process()
        process.executableURL = binary
        process.arguments = ["emulator", "--profile", "watch", "--listen", "127.0.77.5:0", "--name", "Cli Watch",
                             "--state", folder.url.appendingPathComponent("state").path, "--record-every", "0.2"]
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = folder.url.path
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.interrupt() } }

        var text = Data()
        let deadline = ContinuousClock.now + .seconds(20)
        while !text.contains(UInt8(ascii: "\n")), ContinuousClock.now < deadline {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text.append(chunk)
        }
        let line = String(decoding: text, as: UTF8.self)
        #expect(line.hasPrefix("listening on udp://127.0.77.5:") && line.hasSuffix("\n"), "\(line)")
        let address = try SocketAddress(parsing: String(line.dropFirst("listening on udp://".count).dropLast()))
        #expect(address.port != 0)

        let devices = folder.url.appendingPathComponent("aibuds/devices")
        let announced = try FileManager.default.contentsOfDirectory(atPath: devices.path)
        #expect(announced == ["\(process.processIdentifier)-\(address.port).json"])
        let announcement = try JSONDecoder().decode(DiscoveryAnnouncement.self,
                                                    from: Data(contentsOf: devices.appendingPathComponent(announced[0])))
        #expect(announcement.name == "Cli Watch" && announcement.product == 0 && announcement.pid == process.processIdentifier)

        let probe = try UDPProbe(to: address)
        #expect(try await probe.call(DeviceInfoRequest(), sequence: 1)?.name == "Cli Watch")
        let before = try #require(try await probe.call(MediaListRequest(), sequence: 2)).total
        try await Task.sleep(for: .milliseconds(700))
        let after = try #require(try await probe.call(MediaListRequest(), sequence: 3)).total
        #expect(after > before, "--record-every makes new recordings")

        process.terminate()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        let rest = output.fileHandleForReading.readDataToEndOfFile()
        #expect(rest.isEmpty, "exactly one line on stdout")
        #expect(try FileManager.default.contentsOfDirectory(atPath: devices.path).isEmpty)
    }
}
