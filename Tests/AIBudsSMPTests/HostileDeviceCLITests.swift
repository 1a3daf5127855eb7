import AIBudsEmulator
import AIBudsNet
import AIBudsTestKit
import Foundation
import Testing

/// The real `aibuds` binary against a device that lies and sends hostile text
/// (docs/reliability.md, "A lying device crashes the client" and "Device text reaches the terminal raw").
@Suite(.timeLimit(.minutes(3))) struct HostileDeviceCLITests {
    /// A glasses emulator whose files are described by a manifest (so `listed_size` can lie).
    private func start(name: String, files: [[String: Any]], folder: URL) throws -> (Emulator, String) {
        let manifest = folder.appendingPathComponent("manifest.json")
        try JSONSerialization.data(withJSONObject: files).write(to: manifest)
        var configuration = try EmulatorConfiguration(
            profile: "glasses", listen: "127.0.0.1:0", name: name, media: nil, manifest: manifest.path,
            state: nil, link: nil, faults: [], recordEvery: nil, hotspotOpen: false, token: nil)
        configuration.announce = false
        let emulator = try Emulator(configuration: configuration)
        return (emulator, "udp://\(try emulator.start())")
    }

    @Test func sizesThatAddUpPast2To64NeitherCrashListNorImport() async throws {
        let folder = try makeTemporaryDirectory("cli-lying-sizes")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (emulator, device) = try start(name: "Liar", files: [
            ["name": "huge.jpg", "type": "image", "size": 1000, "listed_size": UInt64.max],
            ["name": "one.jpg", "type": "image", "size": 1, "listed_size": 1],
        ], folder: folder)
        defer { emulator.stop() }
        let environment = ["XDG_DATA_HOME": folder.path, "XDG_RUNTIME_DIR": folder.path]

        let (listed, text, listErrors) = try await runAIBuds(["media", "list", "--device", device], environment: environment)
        #expect(listed == 0, "\(listErrors)")
        #expect(text.contains("2 files"))
        let (json, document, _) = try await runAIBuds(["media", "list", "--device", device, "--json"], environment: environment)
        #expect(json == 0)
        #expect(document.contains("18446744073709551615"))

        let destination = folder.appendingPathComponent("import")
        let (imported, output, errors) = try await runAIBuds(
            ["media", "import", "--device", device, "--to", destination.path, "--all"], environment: environment)
        // The lying file fails its check (exit 1); the other one is imported. No trap (SIGILL is 4).
        #expect(imported == 1, "\(output)\n\(errors)")
        #expect(FileManager.default.fileExists(atPath: destination.appendingPathComponent("one.jpg").path))
    }

    @Test func aTimeoutTooLargeForADurationIsAUsageError() async throws {
        for timeout in ["1e300", "inf"] {
            let (status, _, errors) = try await runAIBuds(["recordings", "watch", "--device", "udp://127.0.0.1:9", "--timeout", timeout])
            #expect(status == 64, "\(timeout): \(errors)")
        }
    }

    /// Hostile text: terminal escapes (retitle, clear), CR/LF/NUL, DEL, C1 controls, a bidi
    /// override and a name of 8,000 characters.
    private static let deviceName = "evil\u{1B}]0;pwned\u{07}\u{1B}[2J"
    private static let longName = String(repeating: "L", count: 8000) + ".jpg"
    /// One character carrying 3,000 combining marks.
    private static let zalgoName = "z" + String(repeating: "\u{301}", count: 3000) + ".jpg"
    private static let fileNames = [
        "evil\u{1B}]0;pwned\u{07}\u{1B}[2J.jpg", "cr\rlf\nnul\u{0}del\u{7F}.jpg", "c1\u{9B}2J\u{85}.jpg",
        "bidi\u{202E}gpj.exe.jpg", longName, zalgoName,
    ]

    /// The longest run of `value` among the scalars of `text`.
    private static func longestRun(of value: UInt32, in text: String) -> Int {
        var longest = 0
        var run = 0
        for scalar in text.unicodeScalars {
            run = scalar.value == value ? run + 1 : 0
            longest = max(longest, run)
        }
        return longest
    }

    /// The scalars a terminal interprets: C0 controls but LF, DEL, C1 controls, bidi controls.
    private static func rawControls(in text: String) -> [UInt32] {
        text.unicodeScalars.map(\.value).filter { value in
            (value < 0x20 && value != 0x0A) || (0x7F...0x9F).contains(value) || (0x202A...0x202E).contains(value)
                || (0x2066...0x2069).contains(value) || value == 0x200E || value == 0x200F || value == 0x061C
        }
    }

    @Test func hostileDeviceTextIsEscapedAndCappedInEverythingHumanReadable() async throws {
        let folder = try makeTemporaryDirectory("cli-hostile-text")
        defer { try? FileManager.default.removeItem(at: folder) }
        var files: [[String: Any]] = Self.fileNames.map { ["name": $0, "type": "image", "size": 100] }
        // One file that fails its import, so that an error line names it.
        files.append(["name": "fail\u{1B}[31m.jpg", "type": "image", "size": 100, "listed_size": 5000])
        let (emulator, device) = try start(name: Self.deviceName, files: files, folder: folder)
        defer { emulator.stop() }
        let environment = ["XDG_DATA_HOME": folder.path, "XDG_RUNTIME_DIR": folder.path]

        var outputs: [(String, String)] = []
        let (info, infoText, infoErrors) = try await runAIBuds(["info", "--device", device], environment: environment)
        #expect(info == 0, "\(infoErrors)")
        #expect(infoText.contains("evil\\e]0;pwned\\u{7}\\e[2J"))
        outputs.append(("info", infoText + infoErrors))
        let (list, listText, listErrors) = try await runAIBuds(["media", "list", "--device", device], environment: environment)
        #expect(list == 0, "\(listErrors)")
        #expect(listText.contains("bidi\\u{202E}gpj.exe.jpg"))
        outputs.append(("media list", listText + listErrors))
        let destination = folder.appendingPathComponent("import")
        let (_, importText, importErrors) = try await runAIBuds(
            ["media", "import", "--device", device, "--to", destination.path, "--all"], environment: environment)
        #expect(importText.contains("fail\\e[31m.jpg"), "\(importText)")
        outputs.append(("media import", importText + importErrors))

        for (command, text) in outputs {
            #expect(Self.rawControls(in: text).isEmpty, "\(command) printed raw controls \(Self.rawControls(in: text))")
            #expect(Self.longestRun(of: 0x4C, in: text) < 300, "\(command) printed the 8,000-character name whole")
            #expect(Self.longestRun(of: 0x301, in: text) < 300, "\(command) printed the 3,000 combining marks whole")
        }

        // --json stays exact: the names come back as they are.
        let (_, document, _) = try await runAIBuds(["media", "list", "--device", device, "--json"], environment: environment)
        let parsed = try JSONSerialization.jsonObject(with: Data(document.utf8)) as? [String: Any]
        let names = Set((parsed?["files"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String })
        #expect(names.isSuperset(of: Self.fileNames))
    }
}
