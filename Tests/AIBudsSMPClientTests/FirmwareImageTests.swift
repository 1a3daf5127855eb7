import AIBudsDigest
import AIBudsEmulator
import AIBudsSync
@testable import AIBudsSMPClient
import AIBudsTestKit
import AIBudsMCUboot
import AIBudsWire
import Foundation
import Testing

/// An MCUboot image of `size` pseudo-random body bytes at `version`, built as imgtool builds one
/// without a key.
func firmwareImage(size: Int, version: String, seed: UInt64 = 1, headerSize: Int = 0x200) -> Data {
    var random = SeededRandom(seed: seed)
    let body = Data((0..<size).map { _ in UInt8(truncatingIfNeeded: random.next()) })
    return MCUbootImage.build(body: body, version: MCUbootVersion(version)!, headerSize: headerSize, sha256: { SHA256.hash($0) })
}

/// The MCUboot image format and the local check before an upload.
@Suite struct FirmwareImageTests {
    @Test func aBuiltImageParsesAndVerifies() throws {
        let data = firmwareImage(size: 10_000, version: "2.5.0+7")
        let image = try MCUbootImage(parsing: data)
        #expect(image.version == MCUbootVersion(major: 2, minor: 5, revision: 0, build: 7))
        #expect(image.version.description == "2.5.0.7")
        #expect(image.headerSize == 0x200 && image.bodySize == 10_000 && image.end == data.count)
        #expect(image.hash == Data(SHA256.hash(data.prefix(0x200 + 10_000))))
        try image.verify(data, sha256: { SHA256.hash($0) })
        #expect(try SMPFirmwareImage(data: data).hash == image.hash)
    }

    @Test func eachFaultHasItsImageManagementCode() throws {
        let good = firmwareImage(size: 2_000, version: "1.0.0")
        let hashed = 0x200 + 2_000
        var badMagic = good
        badMagic[0] ^= 1
        var flipped = good
        flipped[0x200 + 5] ^= 0x40
        var twoHashes = good.prefix(hashed)
        twoHashes.append(contentsOf: [0x07, 0x69, 76, 0])  // info: 4 + 2 × 36 bytes
        for _ in 0..<2 { twoHashes.append(contentsOf: [0x10, 0, 32, 0] + [UInt8](repeating: 1, count: 32)) }
        var shortHash = good.prefix(hashed)
        shortHash.append(contentsOf: [0x07, 0x69, 24, 0, 0x10, 0, 16, 0] + [UInt8](repeating: 1, count: 16))
        var runsPast = good
        runsPast[hashed + 2] = 0xFF  // the area claims more bytes than the file has
        let cases: [(Data, ImageManagementError)] = [
            (Data([1, 2]), .invalidImageHeader), (badMagic, .invalidImageHeaderMagic), (good.prefix(40), .invalidImageHeader),
            (good.prefix(hashed), .noTLVs), (Data(twoHashes), .multipleHashes), (Data(shortHash), .tlvInvalidSize),
            (runsPast, .invalidTLV),
        ]
        for (data, code) in cases {
            #expect(throws: MCUbootImageError.self) { try MCUbootImage(parsing: data) }
            do {
                _ = try MCUbootImage(parsing: data)
            } catch {
                #expect(error.imageManagementError == code, "\(error)")
            }
        }
        let parsed = try MCUbootImage(parsing: flipped)
        #expect(throws: MCUbootImageError.hashMismatch) { try parsed.verify(flipped, sha256: { SHA256.hash($0) }) }
        #expect(MCUbootImageError.hashMismatch.imageManagementError == .invalidHash)
        let refused = #expect(throws: SMPError.self) { try SMPFirmwareImage(data: flipped) }
        #expect(refused?.code == .invalidRequest)
    }

    @Test func hostileBytesNeverCrashTheParser() {
        var random = SeededRandom(seed: 99)
        let good = firmwareImage(size: 300, version: "1.2.3")
        for round in 0..<5_000 {
            var data = round % 2 == 0 ? good : Data((0..<Int(random.next() % 600)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
            if !data.isEmpty {
                for _ in 0..<3 { data[Int(random.next() % UInt64(data.count))] = UInt8(truncatingIfNeeded: random.next()) }
            }
            if round % 3 == 0 { data = data.prefix(Int(random.next() % UInt64(data.count + 1))) }
            _ = try? MCUbootImage(parsing: data)
        }
    }

    @Test func versionsParseAsZephyrAndImgtoolSpellThem() {
        #expect(MCUbootVersion("1.2.3")?.description == "1.2.3")
        #expect(MCUbootVersion("1.2.3+4")?.description == "1.2.3.4")
        #expect(MCUbootVersion("1.2.3.4") == MCUbootVersion(major: 1, minor: 2, revision: 3, build: 4))
        #expect(MCUbootVersion("256.0.0") == nil && MCUbootVersion("1.x") == nil && MCUbootVersion("") == nil)
        #expect(MCUbootVersion("2.5.0")! > MCUbootVersion("2.4.1")!)
    }
}

/// Image uploads through the SMP client and the firmware updater, against the emulator over UDP.
@Suite(.timeLimit(.minutes(2))) struct SMPImageUploadTests {
    private func client(_ emulator: LoopbackEmulator, retransmit: Duration = .milliseconds(200)) throws -> SMPClient {
        try SMPClient(transport: UDPTransport(address: emulator.address),
                      configuration: SMPClientConfiguration(retransmitInterval: retransmit, retransmissions: 3, window: 8))
    }

    @Test func uploadsPipelinedAndTheDeviceVerifiesTheImage() async throws {
        let emulator = try LoopbackEmulator(files: [])
        defer { emulator.stop() }
        let client = try client(emulator)
        defer { client.close() }
        let data = firmwareImage(size: 200_000, version: "2.5.0")
        let file = try SMPFirmwareImage(data: data)
        let progress = Locked<[UInt64]>([])
        let result = try await client.uploadImage(data, window: 8) { value in progress.withLock { $0.append(value.completed) } }
        #expect(result.matched && result.resumedFrom == 0 && result.size == UInt64(data.count))
        #expect(progress.withLock { $0.last } == UInt64(data.count))
        let uploaded = try #require(try await client.imageState().first { $0.slot == 1 && $0.imageNumber == 0 })
        #expect(uploaded.hash == file.hash && uploaded.version == "2.5.0" && !uploaded.isPending)
        #expect(emulator.emulator.device.firmwareBytesAccepted == data.count)
        #expect(emulator.emulator.device.workState == .btOrBleConnectedIdle)
    }

    @Test func theDeviceRefusesBadImagesWithZephyrCodes() async throws {
        let emulator = try LoopbackEmulator(files: [])
        defer { emulator.stop() }
        let client = try client(emulator)
        defer { client.close() }
        var corrupt = firmwareImage(size: 5_000, version: "3.0.0")
        corrupt[0x200 + 100] ^= 1
        let cases: [(Data, Int, ImageManagementError)] = [
            (Data(repeating: 0xAB, count: 4_000), 0, .invalidImageHeaderMagic),
            (corrupt, 0, .invalidHash),
            (firmwareImage(size: 5_000, version: "3.0.0").prefix(0x200 + 5_000), 0, .noTLVs),
            (firmwareImage(size: 3_000_000, version: "3.0.0"), 0, .imageTooLarge),
            (firmwareImage(size: 5_000, version: "3.0.0"), 2, .invalidSlot),
        ]
        for (data, image, code) in cases {
            let error = await #expect(throws: SMPError.self) { try await client.uploadImage(data, image: image) }
            #expect(error?.deviceError == SMPDeviceError(group: SMPGroupID.image, rc: code.rawValue, version: .v2), "\(code)")
        }
        #expect(try await client.imageState().allSatisfy { $0.slot == 0 })
        #expect(emulator.emulator.device.workState == .btOrBleConnectedIdle)
    }

    @Test func dropsAtRandomOffsetsResumeWhereTheDeviceStopped() async throws {
        var random = SeededRandom(seed: UInt64(Date().timeIntervalSince1970))
        let size = 300_000
        let offsets = (0..<3).map { _ in 20_000 + Int(random.next() % UInt64(size - 40_000)) }.sorted()
        var faults = FaultConfiguration()
        faults.firmware.dropAtOffsets = offsets
        faults.firmware.dropDuration = .milliseconds(1_500)
        let emulator = try LoopbackEmulator(files: [], faults: faults)
        defer { emulator.stop() }
        let client = try client(emulator, retransmit: .milliseconds(100))
        defer { client.close() }
        let data = firmwareImage(size: size, version: "2.6.0", seed: 5)
        let file = try SMPFirmwareImage(data: data)
        let result = try await SMPFirmwareUpdater(client: client).upload(file, image: 0)
        #expect(result.matched)
        #expect((1...offsets.count).contains(result.interruptions) && result.resumedFrom > 0, "\(result)")
        let accepted = emulator.emulator.device.firmwareBytesAccepted
        // Each drop costs at most the chunks in flight, never a restart from zero.
        #expect(accepted == data.count, "drops at \(offsets): the device accepted \(accepted) of \(data.count) bytes")
        #expect(try await client.imageState().contains { $0.slot == 1 && $0.hash == file.hash })
    }

    @Test func aCorruptedChunkIsRefusedAndTheImageSentAgain() async throws {
        var faults = FaultConfiguration()
        faults.firmware.corruptAtOffset = 123_457
        let emulator = try LoopbackEmulator(files: [], faults: faults)
        defer { emulator.stop() }
        let client = try client(emulator)
        defer { client.close() }
        let data = firmwareImage(size: 200_000, version: "2.6.1", seed: 6)
        let file = try SMPFirmwareImage(data: data)
        let result = try await SMPFirmwareUpdater(client: client).upload(file, image: 0)
        #expect(result.matched && result.interruptions == 0 && result.resumedFrom == 0)
        #expect(emulator.emulator.device.firmwareBytesAccepted == 2 * data.count)
        #expect(try await client.imageState().contains { $0.slot == 1 && $0.hash == file.hash })
    }
}
