@testable import AIBudsEmulator
import AIBudsDigest
import AIBudsNet
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
    static func call(ip: String, _ arguments: String...) throws -> (status: Int32, output: String) {
        guard let executable else { throw HarnessError("smpmgr is not available") }
        return try run(executable, ["--ip", ip, "--timeout", "3"] + arguments, timeout: .seconds(60))
    }

    /// Runs a program, returning its exit status and standard output (standard error appended).
    static func run(_ program: URL, _ arguments: [String], timeout: Duration) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["COLUMNS"] = "250"
        environment["TERM"] = "dumb"
        environment["NO_COLOR"] = "1"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout.seconds, execute: watchdog)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog.cancel()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
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

    @Test func smpmgrTalksToTheEmulator() throws {
        let (folder, files) = try mediaFolder()
        defer { folder.remove() }
        let ip = "127.0.77.1"
        let (emulator, _) = try startEmulator {
            $0.listen = SocketAddress(host: ip, port: 1337)
            $0.mediaFolder = folder.url
        }
        defer { emulator.stop() }

        let echo = try Smpmgr.call(ip: ip, "os", "echo", "hello from smpmgr")
        #expect(echo.status == 0 && echo.output.contains("r='hello from smpmgr'"), "\(echo.output)")

        let groups = try Smpmgr.call(ip: ip, "enum", "get-supported-groups")
        #expect(groups.status == 0, "\(groups.output)")
        let numbers = groups.output.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        for group in [8, 10, 64, 65, 66, 67] { #expect(numbers.contains(group), "group \(group) in \(groups.output)") }

        let hashes = try Smpmgr.call(ip: ip, "file", "get-supported-hash-types")
        #expect(hashes.status == 0 && hashes.output.contains("sha256") && hashes.output.contains("crc32"), "\(hashes.output)")

        for (name, data) in files {
            let size = try Smpmgr.call(ip: ip, "file", "read-size", "/media/" + name)
            #expect(size.status == 0 && size.output.split(separator: "\n").last.map(String.init) == "\(data.count)",
                    "read-size \(name): \(size.output)")

            let destination = folder.url.appendingPathComponent("downloaded-\(data.count)")
            let download = try Smpmgr.call(ip: ip, "file", "download", "/media/" + name, destination.path)
            #expect(download.status == 0, "download \(name): \(download.output)")
            #expect(SHA256.hash(try Data(contentsOf: destination)) == SHA256.hash(data), "download \(name)")

            if !data.isEmpty {
                let hash = try Smpmgr.call(ip: ip, "file", "get-hash", "/media/" + name)
                #expect(hash.status == 0 && hash.output.contains("output=\(CRC32.checksum(data))"), "get-hash \(name): \(hash.output)")
            }
        }
        let missing = try Smpmgr.call(ip: ip, "file", "read-size", "/media/cafe.wav")
        #expect(missing.output.contains("FILE_NOT_FOUND"), "\(missing.output)")

        let upload = folder.url.appendingPathComponent("to-upload.wav")
        let uploaded = Data((0..<25_000).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        try uploaded.write(to: upload)
        let result = try Smpmgr.call(ip: ip, "file", "upload", upload.path, "/media/uploaded by smpmgr.wav")
        #expect(result.status == 0, "\(result.output)")
        let record = try #require(emulator.device.store.record(named: MediaFileName("uploaded by smpmgr.wav")))
        #expect(try emulator.device.store.read(record.object, offset: 0, count: 100_000) == uploaded)
    }

    @Test func smpmgrDownloadsOverTheBLELink() throws {
        let (folder, files) = try mediaFolder()
        defer { folder.remove() }
        let ip = "127.0.77.2"
        let (emulator, _) = try startEmulator {
            $0.listen = SocketAddress(host: ip, port: 1337)
            $0.mediaFolder = folder.url
            $0.link = .ble
        }
        defer { emulator.stop() }
        let destination = folder.url.appendingPathComponent("over-ble")
        let start = ContinuousClock.now
        let download = try Smpmgr.call(ip: ip, "file", "download", "/media/clip one.mp4", destination.path)
        let elapsed = ContinuousClock.now - start
        #expect(download.status == 0, "\(download.output)")
        #expect(try Data(contentsOf: destination) == files.first { $0.name == "clip one.mp4" }?.data)
        // 70,001 bytes in chunks of under 976 bytes, one exchange (two intervals) at a time.
        #expect(elapsed >= .milliseconds(72 * 15), "a stop-and-wait download over ble took \(elapsed)")
    }
}
