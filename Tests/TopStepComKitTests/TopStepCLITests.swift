import AIBudsEmulator
import AIBudsTestKit
import Foundation
import Testing

/// The built `aibuds`, beside the test bundle.
let aibudsBinary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("aibuds")

/// Runs `aibuds` and returns its exit status and output.
func aibuds(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
    let process = Process()
    process.executableURL = aibudsBinary
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

/// The lines written to `pipe`, as they arrive; ends at end of file.
func lines(of pipe: Pipe) -> AsyncStream<String> {
    let pending = Recorder<UInt8>()
    return AsyncStream { continuation in
        pipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            guard !data.isEmpty else {
                handle.readabilityHandler = nil
                continuation.finish()
                return
            }
            // The handler runs serially, so the buffer is only touched here.
            var bytes = pending.drain() + Array(data)
            while let newline = bytes.firstIndex(of: 10) {
                continuation.yield(String(decoding: bytes[..<newline], as: UTF8.self))
                bytes.removeSubrange(...newline)
            }
            for byte in bytes { pending.append(byte) }
        }
    }
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
        let process = Process()
        process.executableURL = aibudsBinary
        process.arguments = ["recordings", "watch", "--device", "udp://\(watch.address)", "--count", "2", "--timeout", "20"]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        var iterator = lines(of: out).makeAsyncIterator()
        #expect(await iterator.next() == "watching: 3 recordings")
        try watch.emulator.device.startRecording(video: false)
        _ = try watch.emulator.device.stopRecording(video: false)
        #expect(await iterator.next() == "changed audioRecording: 4 recordings")
        _ = try watch.emulator.device.store.delete(MediaFileName("REC_20260301_071500.opus"))
        #expect(await iterator.next() == "changed audioRecording: 3 recordings")
        #expect(await iterator.next() == nil)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
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
