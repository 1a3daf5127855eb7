import AIBudsTestKit
import Foundation
import Testing

/// Runs the built `aibuds` (beside the test bundle) and returns its exit status and output.
func aibuds(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("aibuds")
    let process = Process()
    process.executableURL = binary
    process.arguments = arguments
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
}

/// `aibuds recordings …` against an emulated watch over UDP.
@Suite struct TopStepCLITests {
    @Test func listDownloadDeleteThroughTheCommandLine() throws {
        let watch = try LoopbackEmulator.watch()
        defer { watch.stop() }
        let device = "udp://\(watch.address)"
        let list = try aibuds(["recordings", "list", "--device", device])
        #expect(list.status == 0)
        #expect(list.out == "120000\tREC_20260301_071500.opus\n64000\tREC_20260301_120000.opus\n180000\tREC_20260301_183000.opus\n")

        let json = try aibuds(["recordings", "list", "--device", device, "--json"])
        let entries = try JSONSerialization.jsonObject(with: Data(json.out.utf8)) as? [[String: Any]]
        #expect(entries?.count == 3 && entries?.first?["type"] as? String == "audioRecording")

        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ts-cli-\(UUID().uuidString)/sub").path
        defer { try? FileManager.default.removeItem(atPath: (folder as NSString).deletingLastPathComponent) }
        let download = try aibuds(["recordings", "download", "--device", device, "--to", folder, "REC_20260301_120000.opus"])
        #expect(download.status == 0)
        #expect(download.out == "REC_20260301_120000.opus\t\(folder)/REC_20260301_120000.opus\n")
        #expect(try Data(contentsOf: URL(fileURLWithPath: folder + "/REC_20260301_120000.opus")) == watch.content(of: "REC_20260301_120000.opus"))

        let delete = try aibuds(["recordings", "delete", "--device", device, "REC_20260301_120000.opus"])
        #expect(delete.status == 0 && delete.out == "deleted REC_20260301_120000.opus\n")
        #expect(watch.emulator.device.store.list().count == 2)

        let missing = try aibuds(["recordings", "delete", "--device", device, "REC_20260301_120000.opus"])
        #expect(missing.status == 1 && missing.err.contains("no recording named"))
    }

    @Test func watchPrintsOneLinePerChange() async throws {
        let watch = try LoopbackEmulator.watch()
        defer { watch.stop() }
        let device = "udp://\(watch.address)"
        let task = Task.detached { try aibuds(["recordings", "watch", "--device", device, "--count", "1", "--timeout", "10"]) }
        try await Task.sleep(for: .milliseconds(800))
        try watch.emulator.device.startRecording(video: false)
        _ = try watch.emulator.device.stopRecording(video: false)
        let result = try await task.value
        #expect(result.status == 0)
        #expect(result.out == "watching\nchanged audioRecording: 4 recordings\n")
    }

    @Test(arguments: [
        (["recordings", "list"], "--device is required"),
        (["recordings", "list", "--device", "watch"], "udp://HOST:PORT"),
        (["recordings", "download", "--device", "udp://127.0.0.1:9"], "or give --all"),
        (["recordings", "download", "--device", "udp://127.0.0.1:9", "--all", "x"], "not both"),
        (["recordings", "delete", "--device", "udp://127.0.0.1:9"], "name the recordings"),
        (["recordings", "watch", "--device", "udp://127.0.0.1:9", "--count", "0"], "--count"),
        (["recordings", "list", "--device", "udp://127.0.0.1:9", "--bogus"], "unexpected argument"),
    ])
    func usageErrorsExit64(_ arguments: [String], _ message: String) throws {
        let result = try aibuds(arguments)
        #expect(result.status == 64)
        #expect(result.err.contains(message))
    }

    @Test func anUnreachableDeviceExits69() throws {
        let result = try aibuds(["recordings", "list", "--device", "udp://127.0.0.1:9"])
        #expect(result.status == 69)
    }

    @Test func helpNamesEveryOption() throws {
        for (command, options) in [
            ("list", ["--device", "--json"]), ("download", ["--to", "--all", "--progress"]),
            ("delete", ["NAME..."]), ("watch", ["--count", "--timeout"]), ("bench", ["--size", "--runs"]),
        ] {
            let result = try aibuds(["recordings", command, "--help"])
            #expect(result.status == 0)
            for option in options { #expect(result.out.contains(option), "\(command) help lacks \(option)") }
        }
        let top = try aibuds(["--help"])
        for command in ["list", "download", "delete", "watch", "bench"] { #expect(top.out.contains("recordings \(command)")) }
    }
}
