import AIBudsDigest
import AIBudsEmulator
import AIBudsNet
import AIBudsTestKit
import AIBudsMCUboot
import Foundation
import Testing

/// smpmgr from the repository's `.venv/` (made by scripts/smpmgr-venv.sh, which the emulator's
/// interop tests run when it is missing).
private let smpmgr: URL? = {
    let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let candidate = repository.appendingPathComponent(".venv/bin/smpmgr")
    return FileManager.default.isExecutableFile(atPath: candidate.path) ? candidate : nil
}()

/// `aibuds firmware` as a process, against the emulator, with smpmgr on the same device.
@Suite(.serialized, .timeLimit(.minutes(3)),
       .enabled(if: smpmgr != nil, "smpmgr's venv (.venv/) is missing: run scripts/smpmgr-venv.sh"))
struct FirmwareCLITests {
    @Test func aibudsAndSmpmgrSeeEachOthersUploads() async throws {
        let folder = try makeTemporaryDirectory("firmware-cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        // smpmgr always uses port 1337: a loopback host of the test's own, checked free.
        let (emulator, host) = try startEmulatorOnOwnLoopbackHost(port: 1337) { $0.announce = false }
        defer { emulator.stop() }
        let device = "udp://\(host):1337"
        func image(_ name: String, _ version: String, seed: UInt8) throws -> (URL, String) {
            let body = Data((0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed)) })
            let data = MCUbootImage.build(body: body, version: MCUbootVersion(version)!, headerSize: 0x200, sha256: { SHA256.hash($0) })
            let url = folder.appendingPathComponent(name)
            try data.write(to: url)
            return (url, try MCUbootImage(parsing: data).hash.map { String(format: "%02x", $0) }.joined())
        }

        // smpmgr uploads; `aibuds firmware state` sees it.
        let (first, firstHash) = try image("first.bin", "2.5.0", seed: 1)
        let upload = try await runProgram(try #require(smpmgr), ["--ip", host, "--timeout", "10", "image", "upload", first.path])
        #expect(upload.status == 0, "\(upload.out)\(upload.err)")
        let (status, output, errors) = try await runAIBuds(["firmware", "state", "--device", device, "--json"])
        #expect(status == 0, "\(errors)")
        let slots = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
        #expect(slots.contains { $0["slot"] as? Int == 1 && $0["hash"] as? String == firstHash && $0["version"] as? String == "2.5.0" },
                "\(output)")

        // aibuds erases, uploads another image, tests it, resets, confirms; smpmgr sees it run.
        let (erased, _, eraseErrors) = try await runAIBuds(["firmware", "erase", "--device", device])
        #expect(erased == 0, "\(eraseErrors)")
        let (second, secondHash) = try image("second.bin", "2.6.0", seed: 2)
        let (updated, updateOut, updateErrors) = try await runAIBuds(["firmware", "upload", "--device", device, second.path, "--test", "--reset"])
        #expect(updated == 0, "\(updateOut)\(updateErrors)")
        #expect(updateOut.contains("uploaded 50552 bytes") && updateOut.contains("now runs 2.6.0, confirmed"), "\(updateOut)")
        let read = try await runProgram(try #require(smpmgr), ["--ip", host, "--timeout", "10", "image", "state-read"],
                                        environment: ["COLUMNS": "250", "NO_COLOR": "1"])
        #expect(read.out.contains("version='2.6.0'") && read.out.contains(secondHash.uppercased()), "\(read.out)")
        #expect(emulator.device.firmwareVersion() == "2.6.0")

        // A file that is not an MCUboot image is refused before anything is sent (exit 64).
        let bogus = folder.appendingPathComponent("bogus.bin")
        try Data(repeating: 0xEE, count: 1_000).write(to: bogus)
        let (refused, _, refusal) = try await runAIBuds(["firmware", "upload", "--device", device, bogus.path])
        #expect(refused == 64 && refusal.contains("not an MCUboot image"), "\(refusal)")
    }
}
