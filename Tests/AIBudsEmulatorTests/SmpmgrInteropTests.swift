@testable import AIBudsEmulator
import AIBudsDigest
import AIBudsNet
import AIBudsProcess
import AIBudsTestKit
import AIBudsWire
import Foundation
import Testing

/// The stock SMP client `smpmgr` (PyPI), in the repository's `.venv/` made by
/// `scripts/smpmgr-venv.sh`.
enum Smpmgr {
    /// The repository root (this file is `Tests/AIBudsEmulatorTests/<name>.swift`).
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The `smpmgr` executable: the venv's, created by the script when missing; nil when it cannot be had.
    static let executable: URL? = {
        let candidate = repository.appendingPathComponent(".venv/bin/smpmgr")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        let script = repository.appendingPathComponent("scripts/smpmgr-venv.sh")
        guard let result = try? run(URL(fileURLWithPath: "/bin/bash"), [script.path], timeout: .seconds(300)),
            result.status == 0
        else { return nil }
        return FileManager.default.isExecutableFile(atPath: candidate.path) ? candidate : nil
    }()

    /// Whether smpmgr is available (the reason tests are skipped otherwise).
    static var isAvailable: Bool { executable != nil }

    /// Runs smpmgr against the device at `ip` (UDP port 1337, smpmgr's only port).
    static func call(ip: String, _ arguments: String...) async throws -> (status: Int32, output: String) {
        guard let executable else { throw HarnessError("smpmgr is not available") }
        return try await onOwnThread { try run(executable, ["--ip", ip, "--timeout", "10"] + arguments, timeout: .seconds(60)) }
    }

    /// Runs several smpmgr commands in one `smpmgr interactive` process (one Python start instead
    /// of one per command); returns each command's output. The shell splits commands on spaces, so
    /// no argument may contain one.
    static func session(ip: String, _ commands: [[String]]) async throws -> [String] {
        guard let executable else { throw HarnessError("smpmgr is not available") }
        let script = commands.map { (["--ip", ip, "--timeout", "10"] + $0).joined(separator: " ") + "\n" }.joined() + "exit\n"
        let result = try await onOwnThread { try run(executable, ["interactive"], input: Data(script.utf8), timeout: .seconds(120)) }
        // The banner, then one "smpmgr >" prompt before each command's output.
        let parts = result.output.components(separatedBy: "smpmgr >").dropFirst()
        return Array(parts.prefix(commands.count))
    }

    /// Runs a program, returning its exit status and standard output (standard error appended).
    /// It blocks: tests call it through `onOwnThread`.
    static func run(_ program: URL, _ arguments: [String], input: Data? = nil,
                    timeout: Duration) throws -> (status: Int32, output: String) {
        var environment = ProcessInfo.processInfo.environment
        environment["COLUMNS"] = "250"
        environment["TERM"] = "dumb"
        environment["NO_COLOR"] = "1"
        let process = try ChildProcess(
            program.path, arguments, environment: environment, input: input.map { .bytes($0) } ?? .none,
            output: .capture, errors: .sameAsOutput)
        let watchdog = DispatchWorkItem { process.terminate() }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout.seconds, execute: watchdog)
        let data = process.standardOutput!.readDataToEndOfFile()
        let termination = process.waitUntilExit()
        watchdog.cancel()
        return (termination.status, String(decoding: data, as: UTF8.self))
    }
}

@Suite(.serialized, .enabled(if: Smpmgr.isAvailable, "smpmgr's venv (.venv/) is missing and scripts/smpmgr-venv.sh could not create it"))
struct SmpmgrInteropTests {
    /// A media folder with known content, including two names that differ only by normalisation.
    /// (A Swift dictionary keyed by name would merge those two: their strings compare equal.)
    private func mediaFolder() throws -> (TemporaryFolder, [(name: String, data: Data)]) {
        let folder = try TemporaryFolder("smpmgr-media")
        var random = SeededRandom(seed: 11)
        var files: [(name: String, data: Data)] = []
        for (name, size) in [("clip one.mp4", 70_001), ("caf\u{E9}.wav", 3_333), ("cafe\u{301}.wav", 4_444), ("empty.jpg", 0)] {
            let data = Data((0..<size).map { _ in UInt8(truncatingIfNeeded: random.next()) })
            try data.write(to: folder.url.appendingPathComponent(name))
            files.append((name, data))
        }
        return (folder, files)
    }

    @Test func smpmgrTalksToTheEmulator() async throws {
        let (folder, files) = try mediaFolder()
        defer { folder.remove() }
        // smpmgr always uses port 1337: a loopback host of the test's own, checked free.
        let (emulator, ip) = try startEmulatorOnOwnLoopbackHost(port: 1337) {
            $0.announce = false
            $0.mediaFolder = folder.url
        }
        defer { emulator.stop() }

        // One smpmgr process runs the commands whose arguments have no spaces.
        var commands: [[String]] = [["os", "echo", "hello-from-smpmgr"], ["enum", "get-supported-groups"],
                                    ["file", "get-supported-hash-types"]]
        let simple = files.filter { !$0.name.contains(" ") }
        for (index, file) in simple.enumerated() {
            commands.append(["file", "read-size", "/media/" + file.name])
            commands.append(["file", "download", "/media/" + file.name, folder.url.appendingPathComponent("downloaded-\(index)").path])
            commands.append(["file", "get-hash", "/media/" + file.name])
        }
        commands.append(["file", "read-size", "/media/cafe.wav"])
        let outputs = try await Smpmgr.session(ip: ip, commands)
        try #require(outputs.count == commands.count, "\(outputs)")

        #expect(outputs[0].contains("r='hello-from-smpmgr'"), "\(outputs[0])")
        let numbers = outputs[1].split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        for group in [8, 10, 64, 65, 66, 67] { #expect(numbers.contains(group), "group \(group) in \(outputs[1])") }
        #expect(outputs[2].contains("sha256") && outputs[2].contains("crc32"), "\(outputs[2])")
        for (index, file) in simple.enumerated() {
            let (size, download, hash) = (outputs[3 + 3 * index], outputs[4 + 3 * index], outputs[5 + 3 * index])
            let lines = size.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(lines.contains("\(file.data.count)"), "read-size \(file.name): \(size)")
            let destination = folder.url.appendingPathComponent("downloaded-\(index)")
            #expect(SHA256.hash((try? Data(contentsOf: destination)) ?? Data([0])) == SHA256.hash(file.data),
                    "download \(file.name): \(download)")
            if file.data.isEmpty {
                #expect(hash.contains("output=0"), "get-hash \(file.name): \(hash)")
            } else {
                #expect(hash.contains("output=\(CRC32.checksum(file.data))"), "get-hash \(file.name): \(hash)")
            }
        }
        #expect(outputs.last?.contains("FILE_NOT_FOUND") == true, "\(outputs.last ?? "")")

        // A name with a space needs a process of its own (the interactive shell splits on spaces).
        let upload = folder.url.appendingPathComponent("to-upload.wav")
        let uploaded = Data((0..<25_000).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        try uploaded.write(to: upload)
        let result = try await Smpmgr.call(ip: ip, "file", "upload", upload.path, "/media/uploaded by smpmgr.wav")
        #expect(result.status == 0, "\(result.output)")
        let record = try #require(emulator.device.store.record(named: MediaFileName("uploaded by smpmgr.wav")))
        #expect(try emulator.device.store.read(record.object, offset: 0, count: 100_000) == uploaded)
    }

    @Test func smpmgrDownloadsOverTheBLELink() async throws {
        let (folder, files) = try mediaFolder()
        defer { folder.remove() }
        let (emulator, ip) = try startEmulatorOnOwnLoopbackHost(port: 1337) {
            $0.announce = false
            $0.mediaFolder = folder.url
            $0.link = .ble
        }
        defer { emulator.stop() }
        let destination = folder.url.appendingPathComponent("over-ble")
        let start = ContinuousClock.now
        let download = try await Smpmgr.call(ip: ip, "file", "download", "/media/clip one.mp4", destination.path)
        let elapsed = ContinuousClock.now - start
        #expect(download.status == 0, "\(download.output)")
        #expect(try Data(contentsOf: destination) == files.first { $0.name == "clip one.mp4" }?.data)
        // 70,001 bytes in chunks of under 976 bytes, one exchange (two intervals) at a time.
        #expect(elapsed >= .milliseconds(72 * 15), "a stop-and-wait download over ble took \(elapsed)")
    }
}
