import AIBudsDigest
import AIBudsEmulator
import AIBudsSMPClient
import AIBudsTestKit
import AIBudsWire
import Foundation
import Testing

/// The SMP client against the real emulator over real UDP sockets on loopback.
@Suite(.timeLimit(.minutes(1))) struct EmulatorUDPTests {
    @Test func echoAndParams() async throws {
        let device = try LoopbackEmulator(files: [])
        defer { device.stop() }
        let client = try SMPClient(transport: UDPTransport(address: device.address))
        defer { client.close() }
        #expect(try await client.send(OSEchoRequest(d: "hello emulator")).r == "hello emulator")
        #expect(try await client.negotiateMTU() == 1024)
    }

    @Test func downloadsAFileOverUDPAndItsSHA256Matches() async throws {
        let device = try LoopbackEmulator(files: [.generated("walk.mp4", type: .video, size: 1_000_000)])
        defer { device.stop() }
        let client = try SMPClient(transport: UDPTransport(address: device.address))
        defer { client.close() }
        let out = Collector()
        let result = try await client.downloadFile(path: "/media/walk.mp4", window: 16) { out.data.append($0) }
        let expected = try device.content(of: "walk.mp4")
        #expect(out.data.count == 1_000_000)
        #expect(SHA256.hash(out.data) == SHA256.hash(expected))
        #expect(result.verified)
    }

    @Test func downloadsAndUploadsOverALossyLink() async throws {
        var faults = FaultConfiguration()
        faults.lose = 0.05
        faults.duplicate = 0.02
        faults.reorder = 0.05
        faults.seed = 7
        let device = try LoopbackEmulator(files: [.generated("lossy.mp4", type: .video, size: 200_000)], faults: faults)
        defer { device.stop() }
        let config = SMPClientConfiguration(retransmitInterval: .milliseconds(100), retransmissions: 8, window: 8)
        let client = try SMPClient(transport: UDPTransport(address: device.address), configuration: config)
        defer { client.close() }
        let out = Collector()
        let result = try await client.downloadFile(path: "/media/lossy.mp4") { out.data.append($0) }
        #expect(out.data == (try device.content(of: "lossy.mp4")))
        #expect(result.verified)

        let bytes = Data((0..<60_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 5) })
        let upload = try await client.uploadFile(path: "/media/lossy-upload.jpg", data: bytes)
        #expect(upload.verified)
        #expect(try device.content(of: "lossy-upload.jpg") == bytes)
    }

    @Test func deviceErrorsArriveTypedOverUDP() async throws {
        let device = try LoopbackEmulator(files: [])
        defer { device.stop() }
        let client = try SMPClient(transport: UDPTransport(address: device.address))
        defer { client.close() }
        let unknown = await smpFailure { try await client.send(group: 99, command: 0, operation: .read, payload: [:]) }
        #expect(unknown?.deviceError?.mgmtError == .notSupported)
        let missing = await smpFailure { try await client.send(MediaDeleteRequest(name: "nothing.jpg")) }
        #expect(missing?.deviceError?.projectReturnCode == .notFound)
    }
}
