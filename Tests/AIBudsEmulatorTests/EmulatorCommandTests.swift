@testable import AIBudsEmulator
import AIBudsNet
import AIBudsTestKit
import AIBudsWire
import Foundation
import Testing

/// The built `aibuds` executable beside the test bundle, when it has been built.
enum AibudsBinary {
    static let url: URL? = builtProduct("aibuds")
}

@Suite(.enabled(if: AibudsBinary.url != nil, "the aibuds executable is not built (run swift build first)"),
       .timeLimit(.minutes(3)))
struct EmulatorCommandTests {
    @Test func aBadOptionIsAUsageError() async throws {
        let binary = try #require(AibudsBinary.url)
        let result = try await runProgram(binary, ["emulator", "--profile", "toaster"])
        #expect(result.status == 64)
        #expect((result.out + result.err).contains("--profile must be glasses, earbuds or watch"))
        let unknown = try await runProgram(binary, ["emulator", "--colour", "red"])
        #expect(unknown.status == 64)
        let help = try await runProgram(binary, ["emulator", "--help"])
        #expect(help.status == 0 && help.out.hasPrefix("usage: aibuds emulator"))
    }

    @Test func theProcessPrintsOneLineServesAnnouncesAndExitsZeroOnSIGTERM() async throws {
        let folder = try TemporaryFolder("cli")
        defer { folder.remove() }
        let binary = try #require(AibudsBinary.url)
        let process = try RunningProgram(binary, [
            "emulator", "--profile", "watch", "--listen", "127.0.77.5:0", "--name", "Cli Watch",
            "--state", folder.url.appendingPathComponent("state").path, "--record-every", "0.2",
        ], environment: ["XDG_RUNTIME_DIR": folder.url.path])
        defer { process.interrupt() }

        let line = try await onOwnThread { process.readLine() } ?? ""
        #expect(line.hasPrefix("listening on udp://127.0.77.5:") && line.hasSuffix("\n"), "\(line)")
        let address = try SocketAddress(parsing: String(line.dropFirst("listening on udp://".count).dropLast()))
        #expect(address.port != 0)

        let devices = folder.url.appendingPathComponent("aibuds/devices")
        let announced = try FileManager.default.contentsOfDirectory(atPath: devices.path)
        #expect(announced == ["\(process.pid)-\(address.port).json"])
        let announcement = try JSONDecoder().decode(DiscoveryAnnouncement.self,
                                                    from: Data(contentsOf: devices.appendingPathComponent(announced[0])))
        #expect(announcement.name == "Cli Watch" && announcement.product == 0 && announcement.pid == process.pid)

        let probe = try UDPProbe(to: address)
        #expect(try await probe.call(DeviceInfoRequest(), sequence: 1)?.name == "Cli Watch")
        let before = try #require(try await probe.call(MediaListRequest(), sequence: 2)).total
        var sequence: UInt8 = 3
        try await eventually("--record-every to make a new recording") {
            defer { sequence &+= 1 }
            return try #require(try await probe.call(MediaListRequest(), sequence: sequence)).total > before
        }

        process.terminate()
        let ended = try await onOwnThread { process.finish() }
        #expect(ended.exited && ended.status == 0)
        #expect(ended.out.isEmpty, "exactly one line on stdout")
        #expect(try FileManager.default.contentsOfDirectory(atPath: devices.path).isEmpty)
    }
}
