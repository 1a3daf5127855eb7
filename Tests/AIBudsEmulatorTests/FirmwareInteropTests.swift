@testable import AIBudsEmulator
import AIBudsDigest
import AIBudsNet
import AIBudsSMPClient
import AIBudsTestKit
import AIBudsMCUboot
import AIBudsWire
import Foundation
import Testing

/// MCUboot's `imgtool` (PyPI), in the repository's `.venv/` beside smpmgr (`scripts/smpmgr-venv.sh`).
enum Imgtool {
    /// The `imgtool` executable: the venv's, created by the script when missing; nil when it cannot be had.
    static let executable: URL? = {
        let candidate = Smpmgr.repository.appendingPathComponent(".venv/bin/imgtool")
        if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        let script = Smpmgr.repository.appendingPathComponent("scripts/smpmgr-venv.sh")
        _ = try? Smpmgr.run(URL(fileURLWithPath: "/bin/bash"), [script.path], timeout: .seconds(300))
        return FileManager.default.isExecutableFile(atPath: candidate.path) ? candidate : nil
    }()

    /// Runs imgtool with `arguments`.
    static func call(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        guard let executable else { throw HarnessError("imgtool is not available") }
        return try await onOwnThread { try Smpmgr.run(executable, arguments, timeout: .seconds(60)) }
    }

    /// Signs `body` (no key: the SHA-256 TLV only) as version `version` into `output`.
    static func sign(_ body: Data, version: String, in folder: URL, name: String) async throws -> URL {
        let input = folder.appendingPathComponent(name + ".bin")
        let output = folder.appendingPathComponent(name + ".signed.bin")
        try body.write(to: input)
        let result = try await call(["sign", "--header-size", "0x200", "--align", "4", "--slot-size", "0x100000",
                                     "--version", version, "--pad-header", input.path, output.path])
        guard result.status == 0 else { throw HarnessError("imgtool sign failed: \(result.output)") }
        return output
    }
}

/// The emulator's Image group against the stock MCUboot and MCUmgr tools, as real processes.
@Suite(.serialized, .timeLimit(.minutes(3)),
       .enabled(if: Imgtool.executable != nil && Smpmgr.isAvailable,
                "imgtool and smpmgr (.venv/) are missing and scripts/smpmgr-venv.sh could not install them"))
struct FirmwareInteropTests {
    private func body(_ size: Int, seed: UInt64) -> Data {
        var random = SeededRandom(seed: seed)
        return Data((0..<size).map { _ in UInt8(truncatingIfNeeded: random.next()) })
    }

    private func client(_ address: SocketAddress) throws -> SMPClient {
        try SMPClient(transport: UDPTransport(address: address),
                      configuration: SMPClientConfiguration(retransmitInterval: .milliseconds(300), retransmissions: 3))
    }

    /// Waits until the device answers again (after a reset's reboot).
    private func waitForDevice(_ client: SMPClient) async throws {
        try await SMPFirmwareUpdater(client: client, reconnectTimeout: .seconds(30)).waitForDevice()
    }

    @Test func imgtoolImagesAreAcceptedAndAnythingElseRefused() async throws {
        let folder = try TemporaryFolder("imgtool")
        defer { folder.remove() }
        let (emulator, address) = try startEmulator()
        defer { emulator.stop() }
        let client = try client(address)
        defer { client.close() }

        let signed = try await Imgtool.sign(body(70_000, seed: 3), version: "3.1.4+2", in: folder.url, name: "app")
        let data = try Data(contentsOf: signed)
        let result = try await client.uploadImage(data)
        #expect(result.matched)
        let slot = try #require(try await client.imageState().first { $0.imageNumber == 0 && $0.slot == 1 })
        #expect(slot.version == "3.1.4.2")
        #expect(slot.hash == Data(SHA256.hash(data.prefix(0x200 + 70_000))), "the hash covers the header and body")
        #expect(try SMPFirmwareImage(data: data).hash == slot.hash)

        // Our own image builder makes images imgtool validates.
        let built = folder.url.appendingPathComponent("built.bin")
        try MCUbootImage.build(body: body(5_000, seed: 4), version: MCUbootVersion("1.0.1")!, headerSize: 0x200,
                               sha256: { SHA256.hash($0) }).write(to: built)
        let verified = try await Imgtool.call(["verify", built.path])
        #expect(verified.status == 0 && verified.output.contains("validated"), "\(verified.output)")

        var flipped = data
        flipped[0x200 + 1_000] ^= 0x01
        let refused: [(Data, ImageManagementError)] = [
            (body(70_000, seed: 3), .invalidImageHeaderMagic),  // the raw binary imgtool was given
            (flipped, .invalidHash),
            (data.prefix(0x200 + 70_000), .noTLVs),
        ]
        for (bytes, code) in refused {
            let error = await #expect(throws: SMPError.self) { try await client.uploadImage(bytes) }
            #expect(error?.deviceError?.group == SMPGroupID.image && error?.deviceError?.rc == code.rawValue, "\(code): \(String(describing: error))")
            #expect(throws: SMPError.self) { try SMPFirmwareImage(data: bytes) }
        }
        // A new upload erases the slot first (as Zephyr's does); a refused image never lands there.
        #expect(try await client.imageState().allSatisfy { $0.slot == 0 })
    }

    @Test func smpmgrUpdatesTheEmulatorAndSeesWhatTheSDKUploaded() async throws {
        let folder = try TemporaryFolder("smpmgr-ota")
        defer { folder.remove() }
        // smpmgr always uses port 1337: a loopback host of the test's own, checked free.
        let (emulator, ip) = try startEmulatorOnOwnLoopbackHost(port: 1337) {
            $0.announce = false
            $0.stateDirectory = folder.url.appendingPathComponent("state")
        }
        let address = SocketAddress(host: ip, port: 1337)
        defer { emulator.stop() }
        let client = try client(address)
        defer { client.close() }

        let signed = try await Imgtool.sign(body(60_000, seed: 8), version: "2.6.0", in: folder.url, name: "next")
        let hash = try SMPFirmwareImage(data: Data(contentsOf: signed)).hash
        let hex = hash.map { String(format: "%02x", $0) }.joined()
        let upload = try await Smpmgr.call(ip: ip, "image", "upload", signed.path)
        #expect(upload.status == 0, "\(upload.output)")
        // What smpmgr uploaded is what the SDK's client (`aibuds firmware state`) sees.
        #expect(try await client.imageState().contains { $0.slot == 1 && $0.hash == hash && $0.version == "2.6.0" })

        let marked = try await Smpmgr.call(ip: ip, "image", "state-write", hex)
        #expect(marked.status == 0, "\(marked.output)")
        #expect(try await client.imageState().contains { $0.slot == 1 && $0.isPending })
        let reset = try await Smpmgr.call(ip: ip, "os", "reset")
        #expect(reset.status == 0, "\(reset.output)")
        try await eventually("the device reboots into the test image") { emulator.device.firmwareVersion() == "2.6.0" }
        try await waitForDevice(client)
        let read = try await Smpmgr.call(ip: ip, "image", "state-read")
        #expect(read.status == 0 && read.output.contains("version='2.6.0'") && read.output.contains(hex.uppercased()),
                "\(read.output)")
        let confirm = try await Smpmgr.call(ip: ip, "image", "state-write", "--confirm")
        #expect(confirm.status == 0, "\(confirm.output)")
        #expect(try await client.imageState().contains { $0.slot == 0 && $0.isActive && $0.isConfirmed && $0.hash == hash })

        // The other way round: the SDK's client uploads, smpmgr sees it, and erases it.
        let other = try await Imgtool.sign(body(30_000, seed: 9), version: "2.7.0", in: folder.url, name: "later")
        let otherHash = try SMPFirmwareImage(data: Data(contentsOf: other)).hash
        try await client.uploadImage(Data(contentsOf: other))
        let seen = try await Smpmgr.call(ip: ip, "image", "state-read")
        #expect(seen.output.contains("version='2.7.0'")
                    && seen.output.contains(otherHash.map { String(format: "%02X", $0) }.joined()), "\(seen.output)")
        let erased = try await Smpmgr.call(ip: ip, "image", "erase", "1")
        #expect(erased.status == 0, "\(erased.output)")
        #expect(try await client.imageState().allSatisfy { $0.slot == 0 })

        // The state persists: a restarted emulator runs the confirmed image.
        emulator.stop()
        let (restarted, _) = try startEmulator {
            $0.listen = SocketAddress(host: ip, port: 1337)
            $0.stateDirectory = folder.url.appendingPathComponent("state")
        }
        defer { restarted.stop() }
        #expect(restarted.device.firmwareVersion() == "2.6.0")
    }
}
