import AIBudsDigest
import AIBudsEmulator
import AIBudsTestKit
import AIBudsWire
import Foundation
import Testing

/// The real `aibuds media import` against a real emulator (over sockets) serving hostile file
/// names (docs/reliability.md, "Hostile file names"): every file imports under a safe local name
/// inside the destination or fails with a per-file error; nothing escapes the destination,
/// nothing overwrites another file, the engine's own folders are never clobbered, and NFC/NFD
/// twins are two files.
@Suite(.timeLimit(.minutes(3))) struct HostileNamesCLITests {
    static let nfc = "caf\u{E9}.jpg"
    static let nfd = "cafe\u{301}.jpg"

    /// A glasses emulator holding `files` (name, size, seed), each an image.
    private func start(_ files: [(name: String, size: Int, seed: Int)], folder: URL) throws -> (Emulator, String) {
        let manifest = folder.appendingPathComponent("manifest.json")
        let entries: [[String: Any]] = files.map { ["name": $0.name, "type": "image", "size": $0.size, "seed": $0.seed] }
        try JSONSerialization.data(withJSONObject: entries).write(to: manifest)
        var configuration = try EmulatorConfiguration(
            profile: "glasses", listen: "127.0.0.1:0", name: "Hostile Names", media: nil, manifest: manifest.path,
            state: nil, link: nil, faults: [], recordEvery: nil, hotspotOpen: false, token: nil)
        configuration.announce = false
        let emulator = try Emulator(configuration: configuration)
        return (emulator, "udp://\(try emulator.start())")
    }

    /// The device's SHA-256 of `name`, as hex.
    private func sha256(_ emulator: Emulator, _ name: String) throws -> String {
        let store = emulator.device.store
        guard let object = store.object(named: MediaFileName(name)),
            case .sha256(let digest) = try store.digest(.sha256, of: object).digest
        else { throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "no device file \(name.debugDescription) \(name.unicodeScalars.map(\.value))"]) }
        return digest.hexString
    }

    /// One file of an import's JSON report.
    private struct ReportFile: Decodable {
        struct ErrorInfo: Decodable { var message: String? }
        var name: String
        var status: String
        var path: String?
        var sha256: String?
        var error: ErrorInfo?
        var message: String? { error?.message }
    }

    private struct Report: Decodable { var files: [ReportFile] }

    /// Runs `aibuds media import --json` with `arguments`; returns the exit status and the files of
    /// its report. Read with `JSONDecoder`: `JSONSerialization` drops a U+FEFF inside a string.
    private func runImport(_ arguments: [String], folder: URL) async throws -> (Int32, [ReportFile], String) {
        let environment = ["XDG_DATA_HOME": folder.path, "XDG_RUNTIME_DIR": folder.path]
        let (status, output, errors) = try await runAIBuds(["media", "import", "--json"] + arguments, environment: environment)
        guard let report = try? JSONDecoder().decode(Report.self, from: Data(output.utf8)) else {
            Issue.record("no JSON report (exit \(status)): \(output.prefix(2000))\n\(errors.prefix(2000))")
            return (status, [], errors)
        }
        return (status, report.files, errors)
    }

    /// The entries of a folder by their exact bytes (`FileManager` would hand back `String`s).
    private func entries(of folder: URL) -> Set<[UInt8]> {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return [] }
        return Set(names.map { Array($0.utf8) })
    }

    @Test func nfcAndNfdTwinsImportAsTwoVerifiedFilesAndNewImportsNothingTheSecondTime() async throws {
        #expect(Self.nfc == Self.nfd)
        let folder = try makeTemporaryDirectory("cli-twins")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (emulator, device) = try start([(Self.nfc, 30_000, 1), (Self.nfd, 40_000, 2), ("plain.jpg", 5_000, 3)], folder: folder)
        defer { emulator.stop() }
        let destination = folder.appendingPathComponent("import")

        let (status, files, errors) = try await runImport(["--device", device, "--to", destination.path, "--all"], folder: folder)
        #expect(status == 0, "\(errors)")
        #expect(files.count == 3)
        #expect(Set(files.map { MediaFileName($0.name) }) == [MediaFileName(Self.nfc), MediaFileName(Self.nfd), MediaFileName("plain.jpg")])
        var paths = Set<[UInt8]>()
        for file in files {
            #expect(file.status == "imported", "\(file.name.unicodeScalars.map(\.value)): \(file.message ?? "")")
            guard let path = file.path else { continue }
            paths.insert(Array(path.utf8))
            #expect(file.sha256 == (try sha256(emulator, file.name)))
            #expect(try SHA256.hash(fileAt: URL(fileURLWithPath: path)).hexString == (try sha256(emulator, file.name)))
        }
        #expect(paths.count == 3, "three distinct local files")
        #expect(entries(of: destination).subtracting([Array(".aibuds".utf8)]).count == 3)

        let (again, second, againErrors) = try await runImport(
            ["--device", device, "--to", destination.path, "--all", "--new"], folder: folder)
        #expect(again == 0, "\(againErrors)")
        #expect(second.count == 3)
        #expect(second.allSatisfy { $0.status == "skipped" }, "\(second.map { ($0.name.unicodeScalars.map(\.value), $0.status) })")
        #expect(entries(of: destination).subtracting([Array(".aibuds".utf8)]).count == 3)
    }

    /// At least 40 hostile names, by class.
    static func hostileNames(escapeMarker: String) -> [(class: String, name: String)] {
        let long255 = String(repeating: "a", count: 260) + ".jpg"
        let long4K = String(repeating: "\u{E9}", count: 2_048) + ".jpg"  // 4,100 bytes
        return [
            ("traversal", "../escaped-\(escapeMarker).jpg"),
            ("traversal", "../../escaped2-\(escapeMarker).jpg"),
            ("traversal", "sub/../../escaped3-\(escapeMarker).jpg"),
            ("traversal", "..\\..\\win-\(escapeMarker).jpg"),
            ("traversal", "sub/dir/x.jpg"),
            ("traversal", "sub_dir_x.jpg"),
            ("absolute", "/tmp/aibuds-abs-\(escapeMarker).jpg"),
            ("absolute", "/etc/aibuds-abs-\(escapeMarker)"),
            ("absolute", "//double-\(escapeMarker).jpg"),
            ("dots", "."),
            ("dots", ".."),
            ("dots", "..."),
            ("dots", "./x.jpg"),
            ("hidden", ".hidden.jpg"),
            ("engine folder", ".partial"),
            ("engine folder", ".aibuds"),
            ("engine folder", ".aibuds/ledger-evil.jsonl"),
            ("engine folder", ".partial/plain.jpg.part"),
            ("engine folder", ".tspartial"),
            ("engine folder", "plain.jpg.part"),
            ("NUL", "nul\u{0}byte.jpg"),
            ("NUL", "\u{0}"),
            ("control", "tab\tcr\rlf\n.jpg"),
            ("control", "del\u{7F}c1\u{85}\u{9B}.jpg"),
            ("ESC", "evil\u{1B}]0;pwned\u{07}\u{1B}[2J.jpg"),
            ("long", long255),
            ("long", long4K),
            ("bidi", "evil\u{202E}gpj.exe"),
            ("bidi", "\u{2066}iso\u{2069}.jpg"),
            ("normalisation twins", Self.nfc),
            ("normalisation twins", Self.nfd),
            ("case twins", "A.jpg"),
            ("case twins", "a.jpg"),
            ("numbered", "a (2).jpg"),
            ("trailing", "trail.jpg."),
            ("trailing", "trail.jpg "),
            ("trailing", "trail.jpg... "),
            ("Windows reserved", "CON"),
            ("Windows reserved", "nul.jpg"),
            ("Windows reserved", "COM1.jpg"),
            ("escape-looking", "%2e%2e%2fpct.jpg"),
            ("escape-looking", "\\xC3\\x28.jpg"),
            ("escape-looking", "%00.jpg"),
            ("escape-looking", "\u{FFFD}replacement.jpg"),
            ("emoji ZWJ", "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}.jpg"),
            ("emoji ZWJ", "\u{1F468}\u{1F469}\u{1F467}.jpg"),
            ("zero-width", "ab.jpg"),
            ("zero-width", "a\u{200D}b.jpg"),
            ("zero-width", "a_b.jpg"),
            ("zero-width", "\u{FEFF}bom.jpg"),
            ("leading dash", "-rf.jpg"),
            ("leading dash", "--help"),
            ("spaces", " "),
            ("spaces", "  lead.jpg"),
            ("slash only", "/"),
            ("plain", "plain.jpg"),
        ]
    }

    @Test func hostileNamesImportSafelyInsideTheDestination() async throws {
        let marker = UUID().uuidString
        let names = Self.hostileNames(escapeMarker: marker)
        #expect(names.count >= 40)
        let folder = try makeTemporaryDirectory("cli-hostile-names")
        defer { try? FileManager.default.removeItem(at: folder) }
        let outside = [
            URL(fileURLWithPath: "/tmp/aibuds-abs-\(marker).jpg"), URL(fileURLWithPath: "/etc/aibuds-abs-\(marker)"),
            URL(fileURLWithPath: "//double-\(marker).jpg"),
        ]
        defer { for url in outside { try? FileManager.default.removeItem(at: url) } }
        let (emulator, device) = try start(names.enumerated().map { ($0.element.name, 100 + $0.offset, $0.offset + 1) }, folder: folder)
        defer { emulator.stop() }
        let destination = folder.appendingPathComponent("import")
        let before = entries(of: folder)

        let (status, files, errors) = try await runImport(["--device", device, "--to", destination.path, "--all"], folder: folder)
        #expect(files.count == names.count)
        let failed = files.filter { $0.status != "imported" }
        #expect(status == (failed.isEmpty ? 0 : 1), "\(errors)")
        for file in failed {
            #expect(file.status == "failed" && !(file.message ?? "").isEmpty, "\(file.name.unicodeScalars.map(\.value)): \(file.status)")
        }
        // Every imported file is a regular file directly inside the destination, with the device's bytes.
        var paths = Set<[UInt8]>()
        for file in files where file.status == "imported" {
            guard let path = file.path else { Issue.record("\(file.name.debugDescription) has no path"); continue }
            let url = URL(fileURLWithPath: path)
            #expect(url.deletingLastPathComponent().standardizedFileURL.path == destination.standardizedFileURL.path,
                    "\(file.name.debugDescription) went to \(path.debugDescription)")
            let local = url.lastPathComponent
            #expect(!local.hasPrefix(".") && !local.contains("/") && local.utf8.count <= 255, "\(local.debugDescription)")
            #expect(!local.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(local.debugDescription)")
            #expect(paths.insert(Array(path.utf8)).inserted, "two files at \(path.debugDescription)")
            #expect(try SHA256.hash(fileAt: url).hexString == (try sha256(emulator, file.name)), "\(file.name.debugDescription)")
        }
        // Nothing else in the destination but the engine's folders, which are still folders.
        let local = entries(of: destination)
        let ownFolders: Set<[UInt8]> = [Array(".aibuds".utf8), Array(".partial".utf8)]
        #expect(local.subtracting(ownFolders) == Set(paths.map { Array(URL(fileURLWithPath: String(decoding: $0, as: UTF8.self)).lastPathComponent.utf8) }))
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: destination.appendingPathComponent(".aibuds").path, isDirectory: &isDirectory))
        #expect(isDirectory.boolValue)
        let ledgerFiles = try FileManager.default.contentsOfDirectory(atPath: destination.appendingPathComponent(".aibuds").path)
        // Only the import's own records: its ledgers and the lock that keeps one import per folder.
        #expect(ledgerFiles.allSatisfy { $0.hasPrefix("ledger-") || $0 == "lock" }, "\(ledgerFiles)")
        // Nothing escaped: the test folder gained only the destination, and no absolute name was written.
        #expect(entries(of: folder).subtracting(before) == [Array("import".utf8)])
        for url in outside { #expect(!FileManager.default.fileExists(atPath: url.path), "\(url.path) was written") }

        // A second run imports nothing (--new) and a third, without it, overwrites nothing.
        let (again, second, _) = try await runImport(["--device", device, "--to", destination.path, "--all", "--new"], folder: folder)
        #expect(second.filter { $0.status == "imported" }.isEmpty)
        #expect(second.filter { $0.status == "skipped" }.count == paths.count)
        #expect(again == status)
        let (_, third, _) = try await runImport(["--device", device, "--to", destination.path, "--all"], folder: folder)
        #expect(third.filter { $0.status == "imported" }.count == paths.count)
        #expect(entries(of: destination).subtracting(ownFolders) == local.subtracting(ownFolders), "the third run added or renamed files")
        for file in third where file.status == "imported" {
            #expect(try SHA256.hash(fileAt: URL(fileURLWithPath: file.path ?? "")).hexString == (try sha256(emulator, file.name)))
        }
    }
}
