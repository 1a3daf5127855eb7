import AIBudsEmulator
import AIBudsTestKit
import AIBudsWire
import Foundation
import Testing

/// The built `aibuds`, beside the test bundle.
let aibudsBinary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("aibuds")

/// Runs `aibuds` and returns its exit status and output (waiting on a thread of its own, never on
/// Swift concurrency's: see `onOwnThread`).
func aibuds(_ arguments: [String]) async throws -> (status: Int32, out: String, err: String) {
    let result = try await runProgram(aibudsBinary, arguments)
    return (result.status, result.out, result.err)
}

/// `aibuds recordings …` against an emulated watch over UDP.
@Suite(.timeLimit(.minutes(2))) struct TopStepCLITests {
    @Test func listDownloadDeleteThroughTheCommandLine() async throws {
        let watch = try LoopbackEmulator.watch()
        defer { watch.stop() }
        let device = "udp://\(watch.address)"
        let list = try await aibuds(["recordings", "list", "--device", device])
        #expect(list.status == 0)
        #expect(list.out == "120000\tREC_20260301_071500.opus\n64000\tREC_20260301_120000.opus\n180000\tREC_20260301_183000.opus\n")

        let json = try await aibuds(["recordings", "list", "--device", device, "--json"])
        let entries = try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [[String: Any]]
        #expect(entries?.count == 3 && entries?.first?["type"] as? String == "audioRecording")

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ts-cli-\(UUID().uuidString)/sub").path
        defer { try? FileManager.default.removeItem(atPath: (folder as NSString).deletingLastPathComponent) }
        let download = try await aibuds(["recordings", "download", "--device", device, "--to", folder, "REC_20260301_120000.opus"])
        #expect(download.status == 0)
        #expect(download.out == "REC_20260301_120000.opus\t\(folder)/REC_20260301_120000.opus\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/REC_20260301_120000.opus")) == watch.content(of: "REC_20260301_120000.opus"))

        let delete = try await aibuds(["recordings", "delete", "--device", device, "REC_20260301_120000.opus"])
        #expect(delete.status == 0 && delete.out == "deleted REC_20260301_120000.opus\n")
        #expect(watch.emulator.device.store.list().count == 2)

        let missing = try await aibuds(["recordings", "delete", "--device", device, "REC_20260301_120000.opus"])
        #expect(missing.status == 1 && missing.err.contains("no recording named"))
    }

    @Test func watchPrintsOneLinePerChange() async throws {
        let watch = try LoopbackEmulator.watch()
        defer { watch.stop() }
        // Lines are read with blocking reads on a thread of their own: a readabilityHandler lost
        // the end of the output in full runs, and the test waited for it forever.
        let process = try RunningProgram(
            aibudsBinary, ["recordings", "watch", "--device", "udp://\(watch.address)", "--count", "2", "--timeout", "20"])
        defer { process.terminate() }
        func nextLine() async throws -> String? { try await onOwnThread { process.readLine() } }
        #expect(try await nextLine() == "watching: 3 recordings\n")
        try watch.emulator.device.startRecording(video: false)
        _ = try watch.emulator.device.stopRecording(video: false)
        #expect(try await nextLine() == "changed audioRecording: 4 recordings\n")
        _ = try watch.emulator.device.store.delete(MediaFileName("REC_20260301_071500.opus"))
        #expect(try await nextLine() == "changed audioRecording: 3 recordings\n")
        let end = try await onOwnThread { process.finish() }
        #expect(end.out.isEmpty && end.status == 0)
    }

    @Test(arguments: [
        (["recordings", "list"], "--device is required"),
        (["recordings", "download", "--device", "udp://127.0.0.1:9"], "or give --all"),
        (["recordings", "download", "--device", "udp://127.0.0.1:9", "--all", "x"], "not both"),
        (["recordings", "delete", "--device", "udp://127.0.0.1:9"], "name the recordings"),
        (["recordings", "watch", "--device", "udp://127.0.0.1:9", "--count", "0"], "--count"),
        (["recordings", "list", "--device", "udp://127.0.0.1:9", "--bogus"], "unexpected argument"),
    ])
    func usageErrorsExit64(_ arguments: [String], _ message: String) async throws {
        let result = try await aibuds(arguments)
        #expect(result.status == 64)
        #expect(result.err.contains(message))
    }

    @Test func aDeviceCanBeNamedAsAScanFindsIt() async throws {
        let runtime = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: runtime) }
        let environment = ["XDG_RUNTIME_DIR": runtime.path]
        let (emulator, _) = try await RunningProgram.emulator(aibudsBinary, ["--profile", "watch", "--name", "Wrist"], environment: environment)
        defer { emulator.terminate() }
        let list = try await runProgram(aibudsBinary, ["recordings", "list", "--device", "wrist"], environment: environment)
        #expect(list.status == 0, "\(list.err)")
        #expect(list.out.contains(".opus"))
        let unknown = try await runProgram(aibudsBinary, ["recordings", "list", "--device", "nosuchwatch"], environment: environment)
        #expect(unknown.status == 69 && unknown.err.contains("no device named 'nosuchwatch'"))
    }

    @Test func anUnreachableDeviceExits69() async throws {
        let result = try await aibuds(["recordings", "list", "--device", "udp://127.0.0.1:9"])
        #expect(result.status == 69)
    }

    @Test func helpNamesEveryOption() async throws {
        for (command, options) in [
            ("list", ["--device", "--json"]), ("download", ["--to", "--all", "--progress"]),
            ("delete", ["NAME..."]), ("watch", ["--count", "--timeout"]), ("bench", ["--size", "--runs"]),
        ] {
            let result = try await aibuds(["recordings", command, "--help"])
            #expect(result.status == 0)
            for option in options { #expect(result.out.contains(option), "\(command) help lacks \(option)") }
        }
        let top = try await aibuds(["--help"])
        for command in ["list", "download", "delete", "watch", "bench"] { #expect(top.out.contains("recordings \(command)")) }
    }
}
